"""Importing a translated XLIFF of many units: checking 3,500 and 35,000 unknown units (the file a reviewer sent,
4.8 MB, once took 100 s), against parsing the same file, as ratios.

    .venv/bin/python bench/exchange_bench.py          # SQLite, in a throwaway file

Each file has units whose ids are well formed but name no paragraph, as a file from another project would; the
import reads it (the encoding, defusedxml), looks every unit up and refuses the file, naming the first hundred
problems. It prints the median seconds of each step and the ratio of the whole import to parsing alone, at both
sizes: with the units looked up together the ratio stays flat as the file grows ten times (linear), where one query
per unit made it grow with the database's round trips.
"""

import argparse
import os
import statistics
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))


def xliff(units):
    body = "".join(
        f'<trans-unit id="2.3#unknown-{n}"><source>Text {n}.</source><target>訳 {n}。</target>'
        '<note from="ipg-revision">1</note></trans-unit>'
        for n in range(units)
    )
    return (
        '<?xml version="1.0" encoding="UTF-8"?>\n<xliff version="1.2" xmlns="urn:oasis:names:tc:xliff:document:1.2">'
        f'<file original="2.3" source-language="en" target-language="ja" datatype="plaintext"><body>{body}</body>'
        "</file></xliff>"
    ).encode()


def median_seconds(function, repeat):
    function()  # warm-up
    seconds = []
    for _ in range(repeat):
        started = time.perf_counter()
        function()
        seconds.append(time.perf_counter() - started)
    return statistics.median(seconds)


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--repeat", type=int, default=3, help="timed runs (default 3)")
    args = parser.parse_args()

    directory = tempfile.TemporaryDirectory(prefix="ipg-exchange-bench-")
    os.environ["DATABASE_URL"] = f"sqlite:///{directory.name}/bench.sqlite3"
    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "ipgsite.settings")
    try:
        import django

        django.setup()
        from django.contrib.auth.models import Group, User
        from django.core.management import call_command

        from ipgsite.exchange import xliff as xliff_format
        from ipgsite.exchange.inbound import COMMAND, FileError, import_file, parse_xml

        call_command("migrate", verbosity=0)
        call_command("loadcontent", verbosity=0)
        person = User.objects.create_user("bench-ja", is_staff=True)
        person.groups.add(Group.objects.get(name="translators-ja"))

        print(f"{'units':>8}{'MB':>6}{'parse (baseline) s':>20}{'import s':>10}{'ratio':>8}")
        for units in (3_500, 35_000):
            data = xliff(units)

            def parse(data=data):
                return parse_xml(data, COMMAND)

            def refused(data=data):
                try:
                    import_file(data, person, [xliff_format.FORMAT], COMMAND)
                except FileError as error:
                    assert len(error.problems) == 101, len(error.problems)
                else:
                    raise AssertionError("the file was imported")

            parsed, imported = median_seconds(parse, args.repeat), median_seconds(refused, args.repeat)
            print(f"{units:>8,}{len(data) / 1e6:>6.1f}{parsed:>20.3f}{imported:>10.3f}{imported / parsed:>7.1f}x")
    finally:
        directory.cleanup()


if __name__ == "__main__":
    main()
