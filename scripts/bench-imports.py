#!/usr/bin/env python3
"""make bench (its last part): reading bank downloads against reading the same data as Starling JSON.

Writes COUNT (default 100,000) transactions of one account three ways — Starling's API JSON
(`starling/`), one OFX 1.02 file and one camt.053.001.08 file (`imports/`) — and times
`nestegg check` (the load alone: read, parse, check, nothing rendered) on each, best of RUNS
(default 3), with GNU time. Prints the table and writes it to bench-results/imports.md. The issue's
bar: OFX and camt.053 at most 2x Starling JSON.
"""
import datetime
import json
import os
import random
import shutil
import subprocess
import sys

root = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
nestegg = os.environ.get("NESTEGG", os.path.join(root, ".build", "release", "nestegg"))
count = int(os.environ.get("COUNT", "100000"))
runs = int(os.environ.get("RUNS", "3"))
work = os.path.join(root, ".bench", "imports")
results = os.path.join(root, "bench-results")


def transactions():
    rng = random.Random(42)
    day0 = datetime.date(2020, 1, 1)
    payees = ["Tesco", "Transport for London", "Pret A Manger", "Amazon", "Thames Water", "Employer Ltd", "Café Nero"]
    balance = 0
    out = []
    for i in range(count):
        day = day0 + datetime.timedelta(days=i * 2000 // count)
        pence = rng.randint(1, 20000) * (1 if rng.random() < 0.1 else -1)
        balance += pence
        out.append((f"t{i:07d}", day, pence, payees[i % len(payees)], f"REF {i}"))
    return out, balance


def amount(pence):
    sign = "-" if pence < 0 else ""
    return f"{sign}{abs(pence) // 100}.{abs(pence) % 100:02d}"


def write_starling(folder, items, balance):
    os.makedirs(os.path.join(folder, "starling", "feed"))
    os.makedirs(os.path.join(folder, "starling", "balances"))
    with open(os.path.join(folder, "starling", "accounts.json"), "w") as f:
        json.dump({"accounts": [{"accountUid": "a1", "accountType": "PRIMARY", "currency": "GBP", "name": "Current"}]}, f)
    with open(os.path.join(folder, "starling", "balances", "a1.json"), "w") as f:
        json.dump({"clearedBalance": {"currency": "GBP", "minorUnits": balance}}, f)
    feed = [{"feedItemUid": uid, "amount": {"currency": "GBP", "minorUnits": abs(p)}, "direction": "OUT" if p < 0 else "IN",
             "transactionTime": f"{day.isoformat()}T12:00:00.000Z", "status": "SETTLED", "source": "MASTER_CARD",
             "counterPartyName": name, "reference": ref} for uid, day, p, name, ref in items]
    with open(os.path.join(folder, "starling", "feed", "a1.json"), "w") as f:
        json.dump({"feedItems": feed}, f, ensure_ascii=False)


def write_ofx(folder, items, balance):
    os.makedirs(os.path.join(folder, "imports"))
    lines = ["OFXHEADER:100", "DATA:OFXSGML", "VERSION:102", "SECURITY:NONE", "ENCODING:UTF-8", "CHARSET:NONE",
             "COMPRESSION:NONE", "OLDFILEUID:NONE", "NEWFILEUID:NONE", "",
             "<OFX><BANKMSGSRSV1><STMTTRNRS><TRNUID>1<STATUS><CODE>0<SEVERITY>INFO</STATUS><STMTRS><CURDEF>GBP",
             "<BANKACCTFROM><BANKID>200000<ACCTID>12345678<ACCTTYPE>CHECKING</BANKACCTFROM><BANKTRANLIST>"]
    for uid, day, p, name, ref in items:
        lines.append(f"<STMTTRN><TRNTYPE>{'DEBIT' if p < 0 else 'CREDIT'}<DTPOSTED>{day.strftime('%Y%m%d')}<TRNAMT>{amount(p)}"
                     f"<FITID>{uid}<NAME>{name}<MEMO>{ref}</STMTTRN>")
    last = items[-1][1].strftime("%Y%m%d")
    lines.append(f"</BANKTRANLIST><LEDGERBAL><BALAMT>{amount(balance)}<DTASOF>{last}</LEDGERBAL></STMTRS></STMTTRNRS></BANKMSGSRSV1></OFX>")
    with open(os.path.join(folder, "imports", "statement.ofx"), "w", encoding="utf-8") as f:
        f.write("\n".join(lines) + "\n")


def write_camt(folder, items, balance):
    os.makedirs(os.path.join(folder, "imports"))
    ns = "urn:iso:std:iso:20022:tech:xsd:camt.053.001.08"
    first, last = items[0][1].isoformat(), items[-1][1].isoformat()
    out = [f'<?xml version="1.0" encoding="UTF-8"?>\n<Document xmlns="{ns}"><BkToCstmrStmt>'
           f"<GrpHdr><MsgId>bench</MsgId><CreDtTm>{last}T23:59:59Z</CreDtTm></GrpHdr>"
           f"<Stmt><Id>1</Id><CreDtTm>{last}T23:59:59Z</CreDtTm><Acct><Id><IBAN>GB33BUKB20201555555555</IBAN></Id><Ccy>GBP</Ccy></Acct>"
           f"<Bal><Tp><CdOrPrtry><Cd>OPBD</Cd></CdOrPrtry></Tp><Amt Ccy=\"GBP\">0.00</Amt><CdtDbtInd>CRDT</CdtDbtInd><Dt><Dt>{first}</Dt></Dt></Bal>"
           f"<Bal><Tp><CdOrPrtry><Cd>CLBD</Cd></CdOrPrtry></Tp><Amt Ccy=\"GBP\">{amount(abs(balance))}</Amt>"
           f"<CdtDbtInd>{'DBIT' if balance < 0 else 'CRDT'}</CdtDbtInd><Dt><Dt>{last}</Dt></Dt></Bal>"]
    for uid, day, p, name, ref in items:
        party = "Cdtr" if p < 0 else "Dbtr"
        out.append(f"<Ntry><NtryRef>{uid}</NtryRef><Amt Ccy=\"GBP\">{amount(abs(p))}</Amt><CdtDbtInd>{'DBIT' if p < 0 else 'CRDT'}</CdtDbtInd>"
                   f"<Sts><Cd>BOOK</Cd></Sts><BookgDt><Dt>{day.isoformat()}</Dt></BookgDt><ValDt><Dt>{day.isoformat()}</Dt></ValDt>"
                   f"<AcctSvcrRef>{uid}</AcctSvcrRef><BkTxCd><Prtry><Cd>CARD</Cd></Prtry></BkTxCd>"
                   f"<NtryDtls><TxDtls><RltdPties><{party}><Pty><Nm>{name}</Nm></Pty></{party}></RltdPties>"
                   f"<RmtInf><Ustrd>{ref}</Ustrd></RmtInf></TxDtls></NtryDtls></Ntry>")
    out.append("</Stmt></BkToCstmrStmt></Document>\n")
    with open(os.path.join(folder, "imports", "statement.xml"), "w", encoding="utf-8") as f:
        f.write("".join(out))


def timed(folder):
    best = None
    for _ in range(runs):
        out = subprocess.run(["/usr/bin/time", "-f", "%e %U %S %M", nestegg, "check", "--data", folder],
                             stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True)
        if out.returncode != 0:
            sys.exit(f"nestegg check failed on {folder}:\n{out.stderr}")
        wall, user, system, peak = out.stderr.strip().splitlines()[-1].split()
        row = (float(wall), float(user) + float(system), int(peak) / 1024)
        best = row if best is None or row[0] < best[0] else best
    return best


def main():
    shutil.rmtree(work, ignore_errors=True)
    items, balance = transactions()
    folders = {}
    for name, write in [("Starling JSON", write_starling), ("OFX 1.02", write_ofx), ("camt.053.001.08", write_camt)]:
        folder = os.path.join(work, name.split()[0].lower())
        os.makedirs(folder)
        write(folder, items, balance)
        folders[name] = folder
    rows = []
    base = None
    for name, folder in folders.items():
        wall, cpu, peak = timed(folder)
        base = base or wall
        size = sum(os.path.getsize(os.path.join(b, f)) for b, _, fs in os.walk(folder) for f in fs) / 1e6
        rows.append(f"| {name} | {size:.1f} MB | {wall:.2f} s | {cpu:.2f} s | {peak:.0f} MB | {wall / base:.2f}× |")
    table = "\n".join([f"Reading {count:,} transactions of one account (`nestegg check`, the load alone; best of {runs}):", "",
                       "| input | size | wall | CPU | peak memory | against Starling JSON |", "|---|---|---|---|---|---|"] + rows)
    print(table)
    os.makedirs(results, exist_ok=True)
    with open(os.path.join(results, "imports.md"), "w") as f:
        f.write(table + "\n")


if __name__ == "__main__":
    main()
