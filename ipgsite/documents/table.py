"""A two-column table made for review (English beside its translation): `.tsv`, `.csv`, or a tab-separated paste
from a spreadsheet. Each row is a `ROW` block with its cells, in the csv module's reading (quoted cells may hold
commas, tabs and line breaks)."""

import csv
import io

from .blocks import ROW, Block


def is_tab_separated(raw):
    """Whether a paste is a table copied from a spreadsheet: most of its lines hold a tab."""
    lines = [line for line in raw.split("\n") if line.strip()]
    with_tab = sum("\t" in line.strip("\t") for line in lines)
    return with_tab >= 3 and with_tab * 2 >= len(lines)


def read(raw, name=""):
    delimiter = "\t" if not name.lower().endswith(".csv") else _delimiter(raw)
    reader = csv.reader(io.StringIO(raw), delimiter=delimiter)
    blocks, line = [], 1
    try:
        for row in reader:
            cells = tuple(cell.strip() for cell in row)
            if any(cells):
                blocks.append(Block(ROW, " ".join(cell for cell in cells if cell), cells=cells, line=line))
            line = reader.line_num + 1
    except csv.Error:
        return blocks  # an unclosed quote: the rows before it
    return blocks


def _delimiter(raw):
    sample = raw[:4096]
    try:
        return csv.Sniffer().sniff(sample, delimiters=",;\t").delimiter
    except csv.Error:
        return ","
