"""Drives Debian's python3-caldav against the service: discovery, a room's calendar, sync, free/busy.

Usage: python_caldav_read.py <phase> <base-url> <bearer-token> <room-id> [<sync-token> | <other room-id>...]
Prints one JSON object on stdout; the mocha test creates and cancels bookings between phases.
"""
import json
import sys
import xml.etree.ElementTree as ElementTree
from datetime import datetime, timezone

import caldav
import requests


class Bearer(requests.auth.AuthBase):
    def __init__(self, token):
        self.token = token

    def __call__(self, request):
        request.headers["Authorization"] = "Bearer " + self.token
        return request


def booking_id(event):
    return str(event.icalendar_instance.walk("VEVENT")[0].get("X-BOOKING-ID"))


def freebusy_lines(text):
    """The FREEBUSY lines of a VFREEBUSY text, unfolded, as (FBTYPE, period) pairs."""
    unfolded = text.replace("\r\n ", "").replace("\n ", "")
    lines = [line for line in unfolded.splitlines() if line.startswith("FREEBUSY")]
    pairs = []
    for line in lines:
        head, periods = line.split(":", 1)
        fbtype = next((p.split("=", 1)[1] for p in head.split(";")[1:] if p.startswith("FBTYPE=")), "BUSY")
        pairs.extend([fbtype, period] for period in periods.split(","))
    return pairs


def main():
    phase, base, token, room = sys.argv[1:5]
    client = caldav.DAVClient(url=base + "/.well-known/caldav", auth=Bearer(token))
    principal = client.principal()
    calendar = caldav.Calendar(client=client, url=base + "/dav/calendars/resources/" + room + "/bookings/")
    if phase == "discover":
        home = principal.calendar_home_set
        own = [str(c.url) for c in principal.calendars()]
        events = calendar.date_search(
            start=datetime(2027, 3, 1, tzinfo=timezone.utc), end=datetime(2027, 4, 1, tzinfo=timezone.utc), expand=False
        )
        print(json.dumps({
            "principal": str(principal.url),
            "home": str(home.url),
            "ownCalendars": own,
            "roomName": calendar.get_display_name(),
            "march": sorted(booking_id(e) for e in events),
            "summaries": sorted(str(e.icalendar_instance.walk("VEVENT")[0].get("SUMMARY")) for e in events),
        }))
    elif phase == "sync-start":
        objects = calendar.objects_by_sync_token(load_objects=True)
        print(json.dumps({"token": objects.sync_token, "ids": sorted(booking_id(o) for o in objects)}))
    elif phase == "sync-next":
        # Loading each object reported: a removed one answers its GET with 404 and stays without data.
        changes = calendar.objects_by_sync_token(sync_token=sys.argv[5], load_objects=True)
        print(json.dumps({
            "token": changes.sync_token,
            "changed": sorted(str(o.url) for o in changes if o.data),
            "removed": sorted(str(o.url) for o in changes if not o.data),
        }))
    elif phase == "freebusy":
        start, end = datetime(2027, 3, 1, tzinfo=timezone.utc), datetime(2027, 4, 1, tzinfo=timezone.utc)
        query = calendar.freebusy_request(start, end)
        rooms = [room] + sys.argv[5:]
        # python3-caldav posts the VFREEBUSY request to the outbox it discovers, but parses the answer
        # as a multistatus and drops it: the schedule-response is read from its raw text instead.
        answers = []
        post = client.post
        client.post = lambda *args, **kwargs: answers.append(post(*args, **kwargs)) or answers[-1]
        principal.freebusy_request(start, end, ["mailto:" + r + "@resources.invalid" for r in rooms])
        ns = {"C": "urn:ietf:params:xml:ns:caldav", "D": "DAV:"}
        outbox = {}
        for response in ElementTree.fromstring(answers[0].raw).findall("C:response", ns):
            recipient = response.findtext("C:recipient/D:href", namespaces=ns)
            outbox[recipient] = {
                "status": response.findtext("C:request-status", namespaces=ns),
                "busy": freebusy_lines(response.findtext("C:calendar-data", default="", namespaces=ns)),
            }
        print(json.dumps({"query": freebusy_lines(query.data), "outbox": outbox}))


main()
