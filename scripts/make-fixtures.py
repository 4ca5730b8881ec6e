#!/usr/bin/env python3
"""Writes the sample data in Fixtures/starling/ (deterministic: a fixed seed).

Run it again only to change the sample; then `make site` regenerates Output/.
"""
import json
import os
import random
import uuid
from datetime import datetime, timedelta, timezone

root = os.path.join(os.path.dirname(os.path.dirname(os.path.abspath(__file__))), "Fixtures")
rng = random.Random(20261122)

def uid(*parts):
    return str(uuid.uuid5(uuid.NAMESPACE_URL, "nestegg:" + ":".join(parts)))

PERSONAL = uid("account", "personal")
TRAVEL = uid("account", "travel")
GOAL = uid("goal", "lisbon")
GOAL_CATEGORY = uid("goal-category", "lisbon")

def z(dt):
    return dt.astimezone(timezone.utc).strftime("%Y-%m-%dT%H:%M:%S.") + f"{dt.microsecond // 1000:03d}Z"

def item(account, n, when, minor, direction, source, name, reference, category, status="SETTLED",
         currency="GBP", party="MERCHANT"):
    d = {
        "feedItemUid": uid("feed", account, str(n)),
        "categoryUid": uid("category", account),
        "amount": {"currency": currency, "minorUnits": minor},
        "sourceAmount": {"currency": currency, "minorUnits": minor},
        "direction": direction,
        "updatedAt": z(when + timedelta(minutes=3)),
        "transactionTime": z(when),
        "source": source,
        "status": status,
        "counterPartyType": party,
        "counterPartyName": name,
        "reference": reference,
        "country": "GB" if currency == "GBP" else "PT",
        "spendingCategory": category,
        "hasAttachment": False,
        "hasReceipt": False,
    }
    if status == "SETTLED":
        d["settlementTime"] = z(when + timedelta(hours=rng.randint(1, 30)))
    if source == "MASTER_CARD":
        d["sourceSubType"] = rng.choice(["CONTACTLESS", "CHIP_AND_PIN", "ONLINE"])
    return d

UTC = timezone.utc
card = [
    ("Tesco", "TESCO-STORES-6148      LONDON        GBR", "GROCERIES", (800, 6500)),
    ("Sainsbury's", "SAINSBURYS S/MKT       LONDON        GBR", "GROCERIES", (600, 5200)),
    ("Pret A Manger", "PRET A MANGER          LONDON        GBR", "EATING_OUT", (245, 1190)),
    ("Costa Coffee", "COSTA COFFEE 43011     LONDON        GBR", "EATING_OUT", (185, 640)),
    ("Dishoom", "DISHOOM KINGS CROSS    LONDON        GBR", "EATING_OUT", (2450, 6800)),
    ("Transport for London", "TFL TRAVEL CH          TFL.GOV.UK/CP GBR", "TRANSPORT", (175, 1620)),
    ("Boots", "BOOTS 1143             LONDON        GBR", "SHOPPING", (299, 2450)),
    ("Waterstones", "WATERSTONES            LONDON        GBR", "SHOPPING", (899, 3200)),
    ("Amazon", "AMZNMKTPLACE           AMAZON.CO.UK  GBR", "SHOPPING", (499, 8999)),
    ("Odeon", "ODEON CINEMAS          LONDON        GBR", "ENTERTAINMENT", (1050, 2800)),
]
debits = [
    ("Thames Water", "THAMES WATER 7731", "BILLS_AND_SERVICES", 3850, 3),
    ("Octopus Energy", "OCTOPUS ENERGY A-1F2E", "BILLS_AND_SERVICES", 9200, 7),
    ("Spotify", "Spotify", "ENTERTAINMENT", 1199, 12),
    ("Gym Group", "THE GYM GROUP 22410", "HEALTH", 2499, 15),
    ("Lambeth Council", "COUNCIL TAX 10442871", "BILLS_AND_SERVICES", 14600, 1),
]

feed = []
n = 0
def add(*args, **kwargs):
    global n
    n += 1
    feed.append(item(PERSONAL, n, *args, **kwargs))

start = datetime(2026, 9, 7, tzinfo=UTC)   # Monday of 2026-W37
end = datetime(2026, 11, 20, 18, 0, tzinfo=UTC)
seed_week = (datetime(2026, 10, 18, 23, 0, tzinfo=UTC), datetime(2026, 10, 26, 0, 0, tzinfo=UTC))

day = start
while day <= end:
    in_seed_week = seed_week[0] <= day + timedelta(hours=12) < seed_week[1]
    if not in_seed_week:
        for _ in range(rng.choice([1, 2, 2, 3])):
            name, ref, cat, (lo, hi) = rng.choice(card)
            when = day + timedelta(hours=rng.randint(7, 21), minutes=rng.randint(0, 59), seconds=rng.randint(0, 59))
            if when > end:
                continue
            minor = rng.randint(lo, hi)
            if rng.random() < 0.12:
                minor = (minor // 100) * 100  # a whole-pound payment rounds up by nothing
            add(when, minor, "OUT", "MASTER_CARD", name, ref, cat)
        for name, ref, cat, minor, dom in debits:
            if day.day == dom:
                add(day + timedelta(hours=6), minor, "OUT", "DIRECT_DEBIT", name, ref, cat, party="MERCHANT")
        if day.day == 25 or (day.month == 9 and day.day == 25):
            add(day + timedelta(hours=1, minutes=12), 285000, "IN", "FASTER_PAYMENTS_IN", "Northwind Ltd",
                "NORTHWIND SALARY", "INCOME", party="SENDER")
    day += timedelta(days=1)

# The seed's week, 2026-W43 (Mon 19 – Sun 25 Oct, the night the clocks go back): £4.35, £5.20 and £0.87
# round up to £1.58. The first payment is at 00:30 on Monday in London (still Sunday in UTC), the last
# at 23:30 on Sunday after the change back to GMT.
add(datetime(2026, 10, 18, 23, 30, tzinfo=UTC), 435, "OUT", "MASTER_CARD", "Costa Coffee",
    "COSTA COFFEE 43011     LONDON        GBR", "EATING_OUT")
add(datetime(2026, 10, 21, 12, 40, tzinfo=UTC), 520, "OUT", "MASTER_CARD", "Pret A Manger",
    "PRET A MANGER          LONDON        GBR", "EATING_OUT")
add(datetime(2026, 10, 23, 19, 5, tzinfo=UTC), 2999, "OUT", "MASTER_CARD", "Ticketmaster",
    "TICKETMASTER UK        LONDON        GBR", "ENTERTAINMENT", status="DECLINED")
add(datetime(2026, 10, 24, 10, 0, tzinfo=UTC), 45000, "OUT", "INTERNAL_TRANSFER", "Euro Travel",
    "To Euro Travel", "SAVING", party="PAYEE")
add(datetime(2026, 10, 25, 1, 30, tzinfo=UTC), 285000, "IN", "FASTER_PAYMENTS_IN", "Northwind Ltd",
    "NORTHWIND SALARY", "INCOME", party="SENDER")
add(datetime(2026, 10, 25, 23, 30, tzinfo=UTC), 87, "OUT", "MASTER_CARD", "Transport for London",
    "TFL TRAVEL CH          TFL.GOV.UK/CP GBR", "TRANSPORT")
# A pending card payment and an upcoming direct debit at the end of the data.
add(datetime(2026, 11, 20, 17, 45, tzinfo=UTC), 1875, "OUT", "MASTER_CARD", "Dishoom",
    "DISHOOM KINGS CROSS    LONDON        GBR", "EATING_OUT", status="PENDING")
add(datetime(2026, 11, 21, 6, 0, tzinfo=UTC), 1199, "OUT", "DIRECT_DEBIT", "Spotify", "Spotify",
    "ENTERTAINMENT", status="UPCOMING")
# One more declined card payment in an ordinary week.
add(datetime(2026, 9, 30, 14, 10, tzinfo=UTC), 12900, "OUT", "MASTER_CARD", "Apple Store",
    "APPLE STORE R245       LONDON        GBR", "SHOPPING", status="DECLINED")

feed.sort(key=lambda f: f["transactionTime"], reverse=True)

travel = []
m = 0
def add_travel(*args, **kwargs):
    global m
    m += 1
    travel.append(item(TRAVEL, m, *args, currency="EUR", **kwargs))

add_travel(datetime(2026, 10, 24, 10, 0, tzinfo=UTC), 52290, "IN", "INTERNAL_TRANSFER", "Personal",
           "From Personal", "SAVING", party="PAYEE")
lisbon = [("Pastéis de Belém", "PASTEIS DE BELEM       LISBOA        PRT", "EATING_OUT", (320, 1480)),
          ("Carris", "CARRIS METRO           LISBOA        PRT", "TRANSPORT", (165, 640)),
          ("Pingo Doce", "PINGO DOCE 221         LISBOA        PRT", "GROCERIES", (450, 3800)),
          ("Time Out Market", "TIME OUT MARKET        LISBOA        PRT", "EATING_OUT", (1200, 4200)),
          ("Museu Calouste Gulbenkian", "GULBENKIAN             LISBOA        PRT", "ENTERTAINMENT", (1000, 1400))]
for offset in range(0, 9):
    d = datetime(2026, 11, 2, tzinfo=UTC) + timedelta(days=offset)
    for _ in range(rng.choice([2, 3, 4])):
        name, ref, cat, (lo, hi) = rng.choice(lisbon)
        add_travel(d + timedelta(hours=rng.randint(8, 22), minutes=rng.randint(0, 59)), rng.randint(lo, hi),
                   "OUT", "MASTER_CARD", name, ref, cat)
travel.sort(key=lambda f: f["transactionTime"], reverse=True)

def balance_of(items, currency):
    total = 0
    for f in items:
        if f["status"] != "SETTLED":
            continue
        total += f["amount"]["minorUnits"] * (1 if f["direction"] == "IN" else -1)
    return total

def write(path, value):
    full = os.path.join(root, path)
    os.makedirs(os.path.dirname(full), exist_ok=True)
    with open(full, "w", encoding="utf-8") as f:
        json.dump(value, f, indent=2, ensure_ascii=False)
        f.write("\n")

write("starling/accounts.json", {"accounts": [
    {"accountUid": PERSONAL, "accountType": "PRIMARY", "defaultCategory": uid("category", PERSONAL),
     "currency": "GBP", "createdAt": "2024-03-02T09:14:31.000Z", "name": "Personal"},
    {"accountUid": TRAVEL, "accountType": "ADDITIONAL", "defaultCategory": uid("category", TRAVEL),
     "currency": "EUR", "createdAt": "2025-06-18T16:02:11.000Z", "name": "Euro Travel"},
]})
write(f"starling/feed/{PERSONAL}.json", {"feedItems": feed})
write(f"starling/feed/{TRAVEL}.json", {"feedItems": travel})
opening = {"GBP": 412_377, "EUR": 2_340}
for account, items, cur in [(PERSONAL, feed, "GBP"), (TRAVEL, travel, "EUR")]:
    cleared = opening[cur] + balance_of(items, cur)
    pending = sum(f["amount"]["minorUnits"] for f in items if f["status"] == "PENDING" and f["direction"] == "OUT")
    money = lambda v: {"currency": cur, "minorUnits": v}
    write(f"starling/balances/{account}.json", {
        "clearedBalance": money(cleared), "effectiveBalance": money(cleared - pending),
        "pendingTransactions": money(pending), "acceptedOverdraft": money(0),
        "amount": money(cleared - pending), "totalClearedBalance": money(cleared),
        "totalEffectiveBalance": money(cleared - pending)})
write(f"starling/savings-goals/{PERSONAL}.json", {"savingsGoalList": [
    {"savingsGoalUid": GOAL, "name": "Trip to Lisbon", "target": {"currency": "GBP", "minorUnits": 120000},
     "totalSaved": {"currency": "GBP", "minorUnits": 48350}, "savedPercentage": 40, "state": "ACTIVE"},
]})
print(f"{len(feed)} + {len(travel)} feed items")
