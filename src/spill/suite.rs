//! The engine's one suite of properties. Its parts are checked here once,
//! against plain models (a `Vec`, a sort, a `HashMap`); and every user of
//! the engine runs the same properties through [`spill_suite!`] (as
//! memchr runs one suite against every backend): whatever the budget and
//! the number of partitions, spilling changes nothing the user gives.

use super::file::Extent;
use super::frame::{get_frame, get_varint, put_bytes, put_varint, varint_len};
use super::*;
use proptest::prelude::*;
use std::collections::HashMap;
use std::io::Write;

const TASK: Task = Task("testing");

/// A user of the engine: the same work done by the engine under a budget
/// small enough to spill, and wholly in memory.
pub(crate) trait User {
    /// What the user is given (values to group, files to diff).
    type Input: std::fmt::Debug;
    /// What it gives back, all of it compared.
    type Output: std::fmt::Debug + PartialEq;
    fn input() -> BoxedStrategy<Self::Input>;
    /// The work within `budget` (0 bytes and up: every path past memory,
    /// over 2 to 8 partitions, with tables that fill at a few keys).
    fn run(input: &Self::Input, budget: Budget) -> Self::Output;
    /// The work with memory to spare: nothing spilled.
    fn held(input: &Self::Input) -> Self::Output;
}

/// Runs the engine's properties against a [`User`].
macro_rules! spill_suite {
    ($user:ty) => {
        proptest::proptest! {
            #![proptest_config(proptest::test_runner::Config::with_cases(24))]
            #[test]
            fn spilling_changes_nothing(
                input in <$user as $crate::spill::suite::User>::input(),
                budget in proptest::prop_oneof![
                    proptest::strategy::Just(0usize),
                    1..4096usize,
                    4096..(1usize << 16)
                ],
                partitions in 2..9usize,
                table_max in proptest::prop_oneof![
                    proptest::strategy::Just($crate::spill::table::MAX),
                    128..1024usize
                ],
            ) {
                let held = <$user as $crate::spill::suite::User>::held(&input);
                let budget = $crate::spill::Budget::new(budget, partitions).with_table_max(table_max);
                let spilled = <$user as $crate::spill::suite::User>::run(&input, budget);
                proptest::prop_assert_eq!(spilled, held);
            }
        }
    };
}
pub(crate) use spill_suite;

/// Frames written to a file as `Writer` writes them.
fn part_of(bodies: &[Vec<u8>], seq: bool) -> Part {
    let mut w = Spill::new(TASK, None, true).unwrap().writer(64);
    for (i, b) in bodies.iter().enumerate() {
        if seq {
            w.push_seq(i as u64 * 3, b).unwrap();
        } else {
            w.push(b).unwrap();
        }
    }
    w.finish().unwrap()
}

fn bodies() -> impl Strategy<Value = Vec<Vec<u8>>> {
    proptest::collection::vec(
        prop_oneof![
            proptest::collection::vec(any::<u8>(), 0..130),
            proptest::collection::vec(any::<u8>(), 0..600)
        ],
        0..60,
    )
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(64))]

    #[test]
    fn varints_round_trip(v in prop_oneof![any::<u64>(), 0..300u64, Just(u64::MAX)]) {
        let mut out = Vec::new();
        put_varint(&mut out, v);
        prop_assert_eq!(out.len(), varint_len(v));
        let mut pos = 0;
        prop_assert_eq!(get_varint(&out, &mut pos), Some(v));
        prop_assert_eq!(pos, out.len());
        // Cut short: no value, no panic.
        prop_assert_eq!(get_varint(&out[..out.len() - 1], &mut 0), None);
    }

    #[test]
    fn partitions_sharing_a_file_read_back_their_own(
        bodies in bodies(),
        to in proptest::collection::vec(0..5usize, 60),
        buffer in 1..300usize,
        cap in 1..700usize,
    ) {
        let mut writers = TASK.writers(None, 5, buffer, true).unwrap();
        let mut want = vec![Vec::new(); 5];
        for (b, &p) in bodies.iter().zip(&to) {
            writers[p].push(b).unwrap();
            want[p].push(b.clone());
        }
        for (w, want) in writers.into_iter().zip(want) {
            let part = w.finish().unwrap();
            let mut frames = part.frames(cap);
            let mut got = Vec::new();
            while frames.advance().unwrap() {
                got.push(frames.frame().to_vec());
            }
            prop_assert_eq!(&got, &want);
            let mut whole = Vec::new();
            for b in &want {
                put_bytes(&mut whole, b);
            }
            prop_assert_eq!(part.read().unwrap(), whole);
        }
    }

    #[test]
    fn frames_read_back_whatever_the_buffer(bodies in bodies(), cap in 1..5000usize, seq in any::<bool>()) {
        let part = part_of(&bodies, seq);
        let mut mem = Vec::new();
        for b in &bodies {
            put_bytes(&mut mem, b);
        }
        let read = |mut frames: Frames<'_>| {
            let (mut got, mut last) = (Vec::new(), 0);
            while frames.advance().unwrap() {
                got.push(if seq {
                    let (s, body) = seq_frame(TASK, frames.frame(), &mut last).unwrap();
                    assert_eq!(s, got.len() as u64 * 3);
                    body.to_vec()
                } else {
                    frames.frame().to_vec()
                });
            }
            got
        };
        prop_assert_eq!(&read(part.frames(cap)), &bodies);
        prop_assert_eq!(part.records, bodies.len() as u64);
        if !seq {
            prop_assert_eq!(&part.read().unwrap(), &mem);
            prop_assert_eq!(&read(Frames::new(TASK, Src::Mem(&mem), cap)), &bodies);
        }
        // A file cut inside a frame is an error, not an end.
        if bodies.last().is_some_and(|b| !b.is_empty()) {
            let end = part.bytes - 1;
            let src = Src::Extents { file: part.file(), extents: &[Extent { off: 0, len: end }], skip: 0, left: end };
            let mut cut = Frames::new(TASK, src, cap);
            let got = loop {
                match cut.advance() {
                    Ok(true) => continue,
                    other => break other.map_err(|e| e.to_string()),
                }
            };
            prop_assert_eq!(got, Err("testing: reading temporary files failed: a record is cut short".into()));
        }
    }

    #[test]
    fn a_merge_of_sorted_runs_is_a_sort(
        runs in proptest::collection::vec(proptest::collection::vec(0..50u64, 0..40), 0..12),
        fan_in in 2..5usize,
        cap in 1..300usize,
        coarse in any::<bool>(),
    ) {
        let store = RunStore::new(TASK, None);
        // Merged by the drawn part alone (`coarse`), the keys tie across
        // runs: equal ones must leave in run order, each run's in its own,
        // which is the order of the whole keys.
        let key = move |f: &[u8]| get_varint(f, &mut 0).map(|k| if coarse { k >> 16 } else { k });
        let whole = |f: &[u8]| get_varint(f, &mut 0);
        let mut all = Vec::new();
        let mut made = Vec::new();
        for (r, keys) in runs.iter().enumerate() {
            let mut buf = RunBuf::default();
            for (j, &k) in keys.iter().enumerate() {
                // Keys made unique, as the users' are: (key, run, index).
                let k = (k << 16) | (r as u64) << 8 | j as u64;
                all.push(k);
                buf.push(k, |out| {
                    let start = frame::begin_frame(out);
                    put_varint(out, k);
                    out.extend_from_slice(&[7; 9][..(k % 9) as usize]);
                    frame::end_frame(out, start);
                });
            }
            made.push(if r % 3 == 0 { buf.into_mem() } else { buf.write(&store).unwrap() });
        }
        all.sort();
        reduce(&store, &mut made, fan_in, cap, key).unwrap();
        prop_assert!(made.len() <= fan_in);
        let mut m = store.merge(&made, cap, key).unwrap();
        let mut got = Vec::new();
        while let Some(f) = m.next().unwrap() {
            got.push(whole(f).unwrap());
        }
        prop_assert_eq!(got, all);
    }

    #[test]
    fn a_table_finds_what_a_map_does(
        keys in proptest::collection::vec(proptest::collection::vec(0..4u8, 0..6), 0..300),
        degenerate in any::<bool>(),
        max in prop_oneof![Just(table::MAX), 0..200usize],
    ) {
        // A degenerate hash puts every key in one slot chain: still found
        // by its bytes. Every other key has a tail, its index. A table
        // past `max` refuses new keys, and says so before.
        let h = |k: &[u8]| if degenerate { 7 } else { hash(k) };
        let mut t: Table<usize> = Table::new(max);
        let mut model: HashMap<&[u8], usize> = HashMap::new();
        for (n, k) in keys.iter().enumerate() {
            let want = model.get(k.as_slice()).copied();
            prop_assert_eq!(t.find(h(k), k), want);
            let tail: &[u8] = if n.is_multiple_of(2) { &[] } else { &n.to_le_bytes() };
            let before = t.bytes_with(k.len() + tail.len());
            let pushed = match want {
                Some(i) => Some(i),
                None if tail.is_empty() => t.find_or_push(h(k), k, || n).map(|(i, _)| i),
                None => t.push(h(k), k, tail, n),
            };
            prop_assert_eq!(pushed.is_none(), want.is_none() && before == usize::MAX);
            let Some(i) = pushed else {
                prop_assert_eq!(t.find(h(k), k), None);
                continue;
            };
            if want.is_none() {
                prop_assert!(t.bytes() <= before, "{} past the {} foreseen", t.bytes(), before);
                model.insert(k, i);
            }
            prop_assert_eq!(t.find_or_push(h(k), k, || 0), Some((i, false)));
        }
        prop_assert!(t.len() <= max);
        prop_assert_eq!(t.len(), model.len());
        for (k, &i) in &model {
            let n = *t.get(i);
            prop_assert_eq!((t.key(i), keys[n].as_slice()), (*k, *k));
            let tail: &[u8] = if n.is_multiple_of(2) { &[] } else { &n.to_le_bytes() };
            prop_assert_eq!(t.tail(i), tail);
        }
    }
}

#[test]
fn buckets_cover_every_partition_evenly() {
    for n in [2, 3, 4, 256] {
        let mut counts = vec![0u32; n];
        for i in 0..100_000u32 {
            counts[bucket(hash(format!("10.1000/{i}").as_bytes()), n)] += 1;
        }
        let expected = 100_000 / n as u32;
        for c in counts {
            assert!(c.abs_diff(expected) < expected / 5, "{n}: {c} against {expected}");
        }
    }
    assert_eq!(bucket(u64::MAX, 256), 255);
    assert_eq!(bucket(0, 256), 0);
    let c = b"10.1000/abc";
    assert_ne!(level_hash(0, c), level_hash(1, c));
    assert_eq!(hash(c), level_hash(0, c));
}

/// A length no file holds is refused before anything is allocated.
#[test]
fn impossible_lengths_are_errors() {
    let mut bad = Vec::new();
    put_varint(&mut bad, 1 << 60);
    bad.extend_from_slice(b"xyz");
    let mut file = tempfile::tempfile().unwrap();
    file.write_all(&bad).unwrap();
    let (len, extents) = (bad.len() as u64, [Extent { off: 0, len: bad.len() as u64 }]);
    let src = Src::Extents { file: &file, extents: &extents, skip: 0, left: len };
    assert!(Frames::new(TASK, src, 64).advance().is_err());
    assert!(Frames::new(TASK, Src::Mem(&bad), 64).advance().is_err());
    assert!(get_frame(&bad, &mut 0).is_none());
}
