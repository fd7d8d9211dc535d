"""Drives Debian's python3-caldav's scheduling against the service (contract §26): a room invited.

Usage: python_caldav_invite.py <phase> <base-url> <bearer-token> <room-id> [<uid> <start> <end> <summary>]
  invite: save_with_invites of a new event in the caller's own calendar, the room's principal as
          the attendee; prints the stored event's answer for the room as a GET returns it.
  inbox:  the caller's schedule inbox (schedule_inbox().get_items()); prints each REPLY.
Prints one JSON object on stdout.
"""
import json
import sys
from datetime import datetime

import caldav
import icalendar
import requests


class Bearer(requests.auth.AuthBase):
    def __init__(self, token):
        self.token = token

    def __call__(self, request):
        request.headers["Authorization"] = "Bearer " + self.token
        return request


def attendee_answers(vevent):
    return [
        {
            "address": str(a),
            "partstat": str(a.params.get("PARTSTAT", "")),
            "scheduleStatus": str(a.params.get("SCHEDULE-STATUS", "")),
            "bookingId": str(a.params.get("X-BOOKING-ID", "")),
        }
        for a in (vevent.get("ATTENDEE") if isinstance(vevent.get("ATTENDEE"), list) else [vevent.get("ATTENDEE")])
        if a is not None
    ]


def main():
    phase, base, token, room = sys.argv[1:5]
    client = caldav.DAVClient(url=base + "/.well-known/caldav", auth=Bearer(token))
    principal = client.principal()
    if phase == "invite":
        uid, start, end, summary = sys.argv[5:9]
        own = [c for c in principal.calendars() if str(c.url).endswith("/bookings/")][0]
        room_principal = caldav.Principal(client=client, url=base + "/dav/principals/resources/" + room + "/")
        event = icalendar.Calendar()
        event.add("prodid", "-//python3-caldav test//EN")
        event.add("version", "2.0")
        vevent = icalendar.Event()
        vevent.add("uid", uid)
        vevent.add("dtstamp", datetime.fromisoformat(start))
        vevent.add("dtstart", datetime.fromisoformat(start))
        vevent.add("dtend", datetime.fromisoformat(end))
        vevent.add("summary", summary)
        event.add_component(vevent)
        saved = own.save_with_invites(event.to_ical().decode(), [room_principal])
        saved.load()
        stored = saved.icalendar_instance.walk("VEVENT")[0]
        print(json.dumps({"url": str(saved.url), "organizer": str(stored.get("ORGANIZER")), "attendees": attendee_answers(stored)}))
    elif phase == "inbox":
        replies = []
        for item in principal.schedule_inbox().get_items():
            calendar = item.icalendar_instance
            vevent = calendar.walk("VEVENT")[0]
            replies.append({
                "method": str(calendar.get("METHOD")),
                "uid": str(vevent.get("UID")),
                "requestStatus": str(vevent.get("REQUEST-STATUS")),
                "attendees": attendee_answers(vevent),
            })
        print(json.dumps({"replies": sorted(replies, key=lambda r: (r["uid"], r["requestStatus"]))}))


main()
