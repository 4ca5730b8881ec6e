#!/usr/bin/env python3
"""A stand-in for Starling's API v2, RESTCountries v3.1 and Frankfurter's /v1 time series, for the end-to-end test of
`nestegg fetch`. It serves canned answers built from a data folder in the input contract's
shapes (Fixtures/), on 127.0.0.1 only, and stops by itself after --lifetime seconds.

    server.py --data Fixtures --token TOKEN [--lifetime 120]

It prints the port it listens on as its first line of standard output. Each request must carry
`Authorization: Bearer TOKEN` (RESTCountries' excepted), or it gets 401. A feed request must
name the account's default category and ask for at most 366 days, with timestamps such as
2026-11-21T06:00:00.000Z; it gets the items whose transactionTime lies in that span. A path
under /redirect/ is answered with a redirect to the same path without that prefix.
"""
import argparse
import json
import os
import re
import signal
import sys
import threading
from datetime import datetime, timedelta
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from urllib.parse import parse_qs, urlsplit

TIMESTAMP = re.compile(r"^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$")


def read(path):
    with open(path, "rb") as handle:
        return handle.read()


def instant(text):
    """An ISO 8601 date-time with a zone as an aware datetime."""
    return datetime.fromisoformat(text.replace("Z", "+00:00"))


class Handler(BaseHTTPRequestHandler):
    server_version = "FetchServer/1"

    def log_message(self, format, *args):  # quiet: the test reads nestegg's output, not ours
        pass

    def answer(self, status, body):
        if isinstance(body, (dict, list)):
            body = json.dumps(body).encode()
        self.send_response(status)
        self.send_header("Content-Type", "application/json")
        self.send_header("Content-Length", str(len(body)))
        self.end_headers()
        self.wfile.write(body)

    def do_GET(self):
        data = self.server.data
        url = urlsplit(self.path)
        path, query = url.path, parse_qs(url.query)
        if path.startswith("/redirect/"):
            # Sends the client on to the same path without the prefix: nestegg must not follow.
            self.send_response(302)
            self.send_header("Location", path[len("/redirect"):])
            self.send_header("Content-Length", "0")
            self.end_headers()
            return
        if path == "/v3.1/all":
            fields = query.get("fields", [""])[0].split(",")
            countries = json.loads(read(os.path.join(data, "restcountries", "countries.json")))
            return self.answer(200, [{key: value for key, value in country.items() if key in fields} for country in countries])
        match = re.fullmatch(r"/v1/(\d{4}-\d{2}-\d{2})\.\.(\d{4}-\d{2}-\d{2})", path)
        if match:
            # Frankfurter's time series: the held answer's days within the span (start_date is
            # the first working day of the span, as Frankfurter gives it).
            base = query.get("base", ["EUR"])[0]
            held = os.path.join(data, "rates", base + ".json")
            if not os.path.exists(held):
                return self.answer(404, {"message": "not found"})
            series = json.loads(read(held))
            days = {day: rates for day, rates in series["rates"].items() if match.group(1) <= day <= match.group(2)}
            if not days:
                return self.answer(404, {"message": "not found"})
            return self.answer(200, {"amount": 1.0, "base": base, "start_date": min(days), "end_date": max(days), "rates": days})
        if self.headers.get("Authorization") != "Bearer " + self.server.token:
            return self.answer(401, {"error": "invalid_token", "error_description": "no valid token"})
        starling = os.path.join(data, "starling")
        accounts = json.loads(read(os.path.join(starling, "accounts.json")))["accounts"]
        known = {account["accountUid"]: account for account in accounts}
        if path == "/api/v2/accounts":
            return self.answer(200, read(os.path.join(starling, "accounts.json")))
        if path == "/api/v2/account-holder/name":
            return self.answer(200, read(os.path.join(starling, "account-holder.json")))
        if path == "/api/v2/addresses":
            return self.answer(200, read(os.path.join(starling, "addresses.json")))
        match = re.fullmatch(r"/api/v2/accounts/([^/]+)/(balance|identifiers)", path)
        if match and match.group(1) in known:
            folder = "balances" if match.group(2) == "balance" else "identifiers"
            return self.answer(200, read(os.path.join(starling, folder, match.group(1) + ".json")))
        match = re.fullmatch(r"/api/v2/account/([^/]+)/savings-goals", path)
        if match and match.group(1) in known:
            goals = os.path.join(starling, "savings-goals", match.group(1) + ".json")
            return self.answer(200, read(goals) if os.path.exists(goals) else {"savingsGoalList": []})
        match = re.fullmatch(r"/api/v2/feed/account/([^/]+)/category/([^/]+)/transactions-between", path)
        if match and match.group(1) in known:
            if known[match.group(1)]["defaultCategory"] != match.group(2):
                return self.answer(404, {"error": "not the account's default category"})
            low, high = query.get("minTransactionTimestamp", [""])[0], query.get("maxTransactionTimestamp", [""])[0]
            if not TIMESTAMP.match(low) or not TIMESTAMP.match(high) or instant(high) - instant(low) > timedelta(days=366):
                return self.answer(400, {"error": "bad timestamps", "min": low, "max": high})
            feed = json.loads(read(os.path.join(starling, "feed", match.group(1) + ".json")))["feedItems"]
            items = [item for item in feed if instant(low) <= instant(item["transactionTime"]) <= instant(high)]
            return self.answer(200, {"feedItems": items})
        return self.answer(404, {"error": "no such path", "path": path})


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--data", required=True)
    parser.add_argument("--token", required=True)
    parser.add_argument("--lifetime", type=float, default=120)
    options = parser.parse_args()
    # Stop on SIGTERM even when started by a process that blocks or ignores it (a child inherits
    # both): the test ends the server with it.
    signal.pthread_sigmask(signal.SIG_UNBLOCK, {signal.SIGTERM})
    signal.signal(signal.SIGTERM, signal.SIG_DFL)
    server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
    server.data, server.token = options.data, options.token
    # Bounded in time: a test that dies cannot leave the server running.
    threading.Timer(options.lifetime, server.shutdown).start()
    print(server.server_address[1], flush=True)
    server.serve_forever()


if __name__ == "__main__":
    sys.exit(main())
