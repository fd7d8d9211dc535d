"""Drives Debian's python3-caldav against the service: discovery, a room's calendar, sync.

Usage: python_caldav_read.py <phase> <base-url> <bearer-token> <room-id> [<sync-token>]
Prints one JSON object on stdout; the mocha test creates and cancels bookings between phases.
"""
import json
import sys
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


main()
