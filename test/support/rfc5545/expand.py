"""The independent RFC 5545 expander the series tests compare with: python-dateutil's rrule.

Reads one JSON document on standard input, a list of cases, and writes one JSON list of answers,
in the same order, on standard output (one process per batch: test/support/rfc5545/oracle.ts).

A case: {"start": "Y-m-d H:i:s", "zone": "Europe/Berlin" | "UTC+5:30", "allDay": bool,
"lines": ["RRULE:…", "RDATE;TZID=…:…", "EXDATE;VALUE=DATE:…"], "before": "Y-m-d H:i:s",
"max": n} — DTSTART is `start` in `zone` (a date when all-day), the lines are read as a calendar
program reads them from a VEVENT, and the recurrence set is listed while its local start is before
`before`, at most `max` of them.

An answer: {"starts": [["Y-m-d H:i:s" local, "Y-m-d H:i:s" UTC], …], "complete": bool,
"synchronized": bool} or {"error": "…"}: `complete` when the set has no more instances, and
`synchronized` when the rule gives DTSTART (RFC 5545 §3.8.5.3 leaves a set whose rule does not
undefined). A local time that does not exist (a DST gap) is read with the offset before the gap
and one that occurs twice is the first (RFC 5545 §3.3.5): Python's `fold=0` (PEP 495) is exactly
that reading. The UTC of an all-day start is its local midnight.
"""

import datetime as datetime_module
import json
import re
import sys
import time
from datetime import datetime, timedelta, timezone
from zoneinfo import ZoneInfo

from dateutil.rrule import rrulestr, rruleset

FIXED = re.compile(r"^UTC([+-])(\d{1,2})(?::?(\d{2}))?$")
WP = "%Y-%m-%d %H:%M:%S"
# How long one case may take before it is answered as it stands (a rule that rarely matches).
CASE_SECONDS = 5.0


def zone_of(name):
    if name == "UTC":
        return timezone.utc
    m = FIXED.match(name)
    if m:
        minutes = int(m.group(2)) * 60 + int(m.group(3) or 0)
        return timezone(timedelta(minutes=minutes if m.group(1) == "+" else -minutes))
    return ZoneInfo(name)


def value(text, tzid, zone, all_day, start):
    """One DATE or DATE-TIME value as the series' wall clock (a datetime in `zone`, or naive)."""
    m = re.match(r"^(\d{4})(\d{2})(\d{2})(?:T(\d{2})(\d{2})(\d{2})(Z?))?$", text)
    if not m:
        raise ValueError("bad value " + text)
    y, mo, d = int(m.group(1)), int(m.group(2)), int(m.group(3))
    if m.group(4) is None:
        if all_day:
            return datetime(y, mo, d)
        return datetime(y, mo, d, start.hour, start.minute, start.second, tzinfo=zone)
    wall = datetime(y, mo, d, int(m.group(4)), int(m.group(5)), int(m.group(6)))
    if m.group(7) == "Z":
        return wall.replace(tzinfo=timezone.utc).astimezone(zone)
    if tzid is not None:
        return wall.replace(tzinfo=zone_of(tzid)).astimezone(zone)
    return wall.replace(tzinfo=zone)


def expand(case):
    datetime_module.MAXYEAR = datetime.strptime(case["before"], WP).year + 1
    zone = zone_of(case["zone"])
    all_day = case["allDay"]
    start = datetime.strptime(case["start"], WP)
    dtstart = start if all_day else start.replace(tzinfo=zone)
    rset = rruleset()
    # DTSTART is the set's first instance (RFC 5545 §3.8.5); `synchronized`: the rule gives it too.
    rset.rdate(dtstart)
    synchronized = True
    for raw in case["lines"]:
        head, _, body = raw.partition(":")
        parts = head.split(";")
        name = parts[0].upper()
        params = dict(p.split("=", 1) for p in parts[1:])
        if name == "RRULE":
            rule = rrulestr("RRULE:" + body, dtstart=dtstart)
            synchronized = rule.after(dtstart, inc=True) == dtstart
            rset.rrule(rule)
            continue
        for text in body.split(","):
            v = value(text, params.get("TZID"), zone, all_day, start)
            (rset.rdate if name == "RDATE" else rset.exdate)(v)
    before = datetime.strptime(case["before"], WP)
    # dateutil iterates a rule whose next instance never comes up to the year 9999 (seconds); it
    # reads that bound from the datetime module each period: nothing after `before` is listed.
    datetime_module.MAXYEAR = before.year + 1
    starts = []
    began = time.monotonic()
    complete = True
    for dt in rset:
        local = dt.replace(tzinfo=None)
        if local >= before or len(starts) >= case["max"]:
            complete = False
            break
        utc = (local.replace(tzinfo=zone) if all_day else dt).astimezone(timezone.utc)
        utc = utc.replace(tzinfo=None)
        starts.append([local.strftime(WP), utc.strftime(WP)])
        if time.monotonic() - began > CASE_SECONDS:
            complete = False
            break
    return {"starts": starts, "complete": complete, "synchronized": synchronized}


def main():
    answers = []
    for case in json.load(sys.stdin):
        try:
            answers.append(expand(case))
        except Exception as err:  # noqa: BLE001 (each case answers on its own)
            answers.append({"error": f"{type(err).__name__}: {err}"})
    json.dump(answers, sys.stdout)


main()
