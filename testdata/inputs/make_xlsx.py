"""Writes eurographics_dspace.xlsx: a DSpace export shaped like the
Eurographics Digital Library's, as Excel saves it (shared cell types: text,
whole and fractional numbers, a date, a boolean, an error cell) on two
sheets. Standard library only: an .xlsx is a ZIP of XML parts.

    python3 testdata/inputs/make_xlsx.py
"""
import os
import zipfile
from xml.sax.saxutils import escape

ITEMS = [
    ["id", "collection", "dc.identifier.uri", "dc.identifier.doi", "dc.date.issued", "dc.title", "pages", "open"],
    ["9f3c1a52-0001", "10.2312/2632967", "http://hdl.handle.net/10.2312/egs.20191001",
     "10.2312/egs.20191001", ("date", 43591), "Real-time Rendering; Revisited", ("n", 4), ("b", 1)],
    ["9f3c1a52-0002", "10.2312/2632967", "https://hdl.handle.net/10.2312/egs.20191002",
     "https://doi.org/10.2312/egs.20191002", ("date", 43591.5), "Fluids", ("n", 4.25), ("b", 0)],
    ["9f3c1a52-0003", "10.2312/2632968", "http://hdl.handle.net/10.2312/egs.20191003",
     "", ("date", 43592), "A short paper", ("n", 2019), ("e", "#N/A")],
]
STATS = [["collection", "items"], ["10.2312/2632967", ("n", 2)]]


def col(i):
    s = ""
    i += 1
    while i:
        i, r = divmod(i - 1, 26)
        s = chr(65 + r) + s
    return s


def sheet(rows):
    out = ['<?xml version="1.0" encoding="UTF-8" standalone="yes"?>\n'
           '<worksheet xmlns="http://schemas.openxmlformats.org/spreadsheetml/2006/main"><sheetData>']
    for r, row in enumerate(rows, 1):
        out.append(f'<row r="{r}">')
        for c, v in enumerate(row):
            ref = f"{col(c)}{r}"
            if v == "":
                continue
            if isinstance(v, str):
                out.append(f'<c r="{ref}" t="inlineStr"><is><t>{escape(v)}</t></is></c>')
                continue
            kind, x = v
            if kind == "date":
                out.append(f'<c r="{ref}" s="1"><v>{x}</v></c>')
            elif kind == "n":
                out.append(f'<c r="{ref}"><v>{x}</v></c>')
            elif kind == "b":
                out.append(f'<c r="{ref}" t="b"><v>{x}</v></c>')
            elif kind == "e":
                out.append(f'<c r="{ref}" t="e"><v>{x}</v></c>')
        out.append("</row>")
    out.append("</sheetData></worksheet>")
    return "".join(out)


NS = "http://schemas.openxmlformats.org"
PARTS = {
    "[Content_Types].xml": f'<?xml version="1.0" encoding="UTF-8"?><Types xmlns="{NS}/package/2006/content-types">'
    '<Default Extension="rels" ContentType="application/vnd.openxmlformats-package.relationships+xml"/>'
    '<Default Extension="xml" ContentType="application/xml"/>'
    '<Override PartName="/xl/workbook.xml" ContentType="application/vnd.openxmlformats-officedocument.spreadsheetml.sheet.main+xml"/>'
    '<Override PartName="/xl/worksheets/sheet1.xml" ContentType="application/vnd.openxmlformats-officedocument.spreadsheetml.worksheet+xml"/>'
    '<Override PartName="/xl/worksheets/sheet2.xml" ContentType="application/vnd.openxmlformats-officedocument.spreadsheetml.worksheet+xml"/>'
    '<Override PartName="/xl/styles.xml" ContentType="application/vnd.openxmlformats-officedocument.spreadsheetml.styles+xml"/>'
    "</Types>",
    "_rels/.rels": f'<?xml version="1.0" encoding="UTF-8"?><Relationships xmlns="{NS}/package/2006/relationships">'
    f'<Relationship Id="rId1" Type="{NS}/officeDocument/2006/relationships/officeDocument" Target="xl/workbook.xml"/>'
    "</Relationships>",
    "xl/workbook.xml": f'<?xml version="1.0" encoding="UTF-8"?><workbook xmlns="{NS}/spreadsheetml/2006/main" '
    f'xmlns:r="{NS}/officeDocument/2006/relationships"><sheets>'
    '<sheet name="Items" sheetId="1" r:id="rId1"/><sheet name="Statistics" sheetId="2" r:id="rId2"/>'
    "</sheets></workbook>",
    "xl/_rels/workbook.xml.rels": f'<?xml version="1.0" encoding="UTF-8"?><Relationships xmlns="{NS}/package/2006/relationships">'
    f'<Relationship Id="rId1" Type="{NS}/officeDocument/2006/relationships/worksheet" Target="worksheets/sheet1.xml"/>'
    f'<Relationship Id="rId2" Type="{NS}/officeDocument/2006/relationships/worksheet" Target="worksheets/sheet2.xml"/>'
    f'<Relationship Id="rId3" Type="{NS}/officeDocument/2006/relationships/styles" Target="styles.xml"/>'
    "</Relationships>",
    # Style 1: number format 14, a date.
    "xl/styles.xml": f'<?xml version="1.0" encoding="UTF-8"?><styleSheet xmlns="{NS}/spreadsheetml/2006/main">'
    '<cellXfs count="2"><xf numFmtId="0"/><xf numFmtId="14" applyNumberFormat="1"/></cellXfs></styleSheet>',
    "xl/worksheets/sheet1.xml": sheet(ITEMS),
    "xl/worksheets/sheet2.xml": sheet(STATS),
}

out = os.path.join(os.path.dirname(os.path.abspath(__file__)), "eurographics_dspace.xlsx")
with zipfile.ZipFile(out, "w", zipfile.ZIP_DEFLATED) as z:
    for name, text in PARTS.items():
        # A fixed date: the same bytes on every run.
        info = zipfile.ZipInfo(name, date_time=(2024, 1, 1, 0, 0, 0))
        info.compress_type = zipfile.ZIP_DEFLATED
        z.writestr(info, text)
