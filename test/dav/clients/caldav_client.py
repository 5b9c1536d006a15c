"""python-caldav (Debian's python3-caldav) against the platform, for test/dav/clients.test.ts.

Usage: caldav_client.py <base-url> <user> <password> <calendar-url> <uid> <from-iso> <to-iso>
Discovers from the base URL (/.well-known/caldav), lists the calendars, creates an event with
<uid>, then searches [from, to) with server-side expansion, and prints one JSON document.
"""
import json
import sys
from datetime import datetime, timezone

import caldav

base, user, password, calendar_url, uid, start, end = sys.argv[1:8]
client = caldav.DAVClient(url=base, username=user, password=password)
principal = client.principal()
calendars = principal.calendars()
calendar = next(c for c in calendars if str(c.url).rstrip("/") == calendar_url.rstrip("/"))

calendar.save_event(
    "\r\n".join(
        [
            "BEGIN:VCALENDAR",
            "VERSION:2.0",
            "PRODID:-//test//python-caldav//EN",
            "BEGIN:VEVENT",
            "UID:" + uid,
            "DTSTAMP:20260101T000000Z",
            "DTSTART;TZID=Europe/Berlin:20260305T100000",
            "DTEND;TZID=Europe/Berlin:20260305T110000",
            "SUMMARY:Made by python-caldav",
            "END:VEVENT",
            "END:VCALENDAR",
            "",
        ]
    )
)

found = calendar.search(
    start=datetime.fromisoformat(start),
    end=datetime.fromisoformat(end),
    event=True,
    expand=True,
)
occurrences = []
for obj in found:
    ev = obj.vobject_instance.vevent
    dtstart = ev.dtstart.value
    occurrences.append(
        {
            "uid": str(ev.uid.value),
            "summary": str(ev.summary.value),
            "start": dtstart.astimezone(timezone.utc).strftime("%Y-%m-%dT%H:%M:%SZ"),
            "recurring": hasattr(ev, "recurrence_id"),
        }
    )
print(
    json.dumps(
        {
            "principal": str(principal.url),
            "calendars": [str(c.url) for c in calendars],
            "names": [c.name for c in calendars],
            "occurrences": sorted(occurrences, key=lambda o: o["start"]),
        }
    )
)
