// NestEgg's search page: filters the entries of search-index.js as you type, and the transactions,
// which come in chunks loaded with <script> elements once something is typed: first the list of
// every transaction's (search/transactions/<page>.js: the rows no statement shows), then the
// statements' (search/<account>/<month>.js, one a statement), newest month first. Everything happens in the page:
// no request leaves the site, so it works from a file as from a static host. Results are made with
// text nodes only, never parsed as HTML.
(function () {
  "use strict";
  var entries = window.nesteggSearch || [];
  var months = window.nesteggSearchMonths || [];
  // The chunks to load, in groups loaded one after the other: the list's, then each month's.
  // A chunk is a site-relative path of letters, digits and - . / (never ..): anything else is skipped.
  function chunkPath(path) { return /^search\/[A-Za-z0-9][A-Za-z0-9._-]*(\/[A-Za-z0-9][A-Za-z0-9._-]*)*$/.test(path) && path.indexOf("..") < 0 ? path : null; }
  var groups = [];
  var lists = (window.nesteggSearchLists || []).map(chunkPath);
  // (At most 50 at once: a large list has a page, and so a chunk, per 100 rows.)
  for (var start = 0; start < lists.length; start += 50) { groups.push(lists.slice(start, start + 50)); }
  months.forEach(function (month) {
    groups.push(month.slice(1).map(function (account) {
      return /^\d{4}-\d{2}$/.test(month[0]) && /^[A-Za-z0-9][A-Za-z0-9._-]*$/.test(account) ? "search/" + account + "/" + month[0] : null;
    }));
  });
  var box = document.getElementById("search-box");
  var list = document.getElementById("search-results");
  var status = document.getElementById("search-status");
  var found = document.getElementById("search-transactions");
  var foundStatus = document.getElementById("search-transactions-status");
  if (!box || !list || !status) { return; }
  var shown = 50;
  var shownTransactions = 50;
  // Case and accents do not count: "cafe" finds "Café".
  function fold(text) { return text.normalize("NFD").replace(/[\u0300-\u036f]/g, "").toLowerCase(); }
  var folded = entries.map(function (entry) {
    return { entry: entry, title: fold(entry[1]), text: fold(entry[1] + " " + entry[0] + " " + entry[3]) };
  });
  function rank(item, word) {
    if (item.title.indexOf(word) === 0) { return 0; }
    return item.title.indexOf(word) >= 0 ? 1 : 2;
  }
  function wordsOf(text) { return fold(text).split(/\s+/).filter(function (word) { return word.length > 0; }); }
  // Pages are site-relative paths of letters, digits and - . /, with an optional #row: anything else is not a page.
  function href(target) {
    var match = /^([A-Za-z0-9][A-Za-z0-9._\/-]*)(#[A-Za-z0-9-]+)?$/.exec(target);
    return match ? match[1] + ".html" + (match[2] || "") : null;
  }
  function clear(element) { while (element.firstChild) { element.removeChild(element.firstChild); } }
  function span(className, text) {
    var element = document.createElement("span");
    element.className = className;
    element.textContent = text;
    return element;
  }

  // Amounts, exact: "12.50", "12.5", "£12.50", "-12.50" and "1,200" are read as a sign and a
  // decimal of digits (never a floating-point number), written without leading zeros or trailing
  // zeros after the point, so that equal amounts are equal strings: "12.5", "1200".
  function amountOf(word) {
    var match = /^([-+\u2212]?)[£$€¥]?([-+\u2212]?)(\d{1,3}(?:,\d{3})+|\d+)(?:\.(\d+))?$/.exec(word);
    if (!match || (match[1] && match[2])) { return null; }
    var whole = match[3].replace(/,/g, "").replace(/^0+(?=\d)/, "");
    var fraction = (match[4] || "").replace(/0+$/, "");
    var sign = match[1] || match[2];
    return { sign: sign === "+" ? "+" : sign ? "-" : "", digits: whole + (fraction ? "." + fraction : ""),
             plain: !sign && match[4] === undefined && !/[£$€¥,]/.test(word) };
  }
  // A word finds a transaction by its amount when it reads as one (a signed word, its sign too);
  // a whole number without sign or symbol ("2026", "3417") may also be part of a date or reference.
  function matches(row, word) {
    var amount = amountOf(word);
    if (amount) {
      if (amount.digits === row.amount.digits && (!amount.sign || amount.sign === row.amount.sign)) { return true; }
      if (!amount.plain) { return false; }
    }
    return row.text.indexOf(word) >= 0;
  }

  // The transactions loaded so far, newest month first, each statement's newest line first.
  var rows = [];
  function addRows(chunk) {
    for (var index = chunk.length - 1; index >= 0; index--) {
      var data = chunk[index];
      var signed = amountOf(data[5]) || { sign: "", digits: "" };
      rows.push({ data: data, amount: { sign: signed.sign === "-" ? "-" : "+", digits: signed.digits },
                  text: fold([data[0], data[1], data[2], data[3], data[4], data[6]].join(" ")) });
    }
  }
  var nextGroup = 0;
  var loading = false;
  var chunksLoaded = 0;
  var chunksTotal = groups.reduce(function (sum, group) { return sum + group.length; }, 0);
  window.nesteggSearchAdd = function (path, chunk) {
    if (Array.isArray(chunk)) { addRows(chunk); }
  };
  // Loads the next group's chunks, all at once, then the group after when they have come.
  function loadGroup() {
    if (nextGroup >= groups.length) {
      loading = false;
      showTransactions();
      return;
    }
    loading = true;
    var group = groups[nextGroup++];
    var waiting = group.length;
    function done() {
      chunksLoaded += 1;
      waiting -= 1;
      if (waiting === 0) { showTransactions(); loadGroup(); }
    }
    group.forEach(function (path) {
      if (!path) { done(); return; }
      var script = document.createElement("script");
      script.src = path + ".js";
      script.onload = done;
      script.onerror = done;
      document.head.appendChild(script);
    });
    if (waiting === 0) { window.setTimeout(loadGroup, 0); }
  }

  function showTransactions() {
    if (!found || !foundStatus) { return; }
    var words = wordsOf(box.value);
    clear(found);
    if (words.length === 0) { foundStatus.textContent = ""; return; }
    if (!loading && nextGroup === 0 && groups.length > 0) { loadGroup(); }
    // Newest day first, whatever order the chunks came in; a day's rows by the page and row they link to.
    var hits = rows.filter(function (row) { return words.every(function (word) { return matches(row, word); }); })
      .sort(function (a, b) { return a.data[0] < b.data[0] ? 1 : a.data[0] > b.data[0] ? -1 : a.data[7] < b.data[7] ? -1 : a.data[7] > b.data[7] ? 1 : 0; });
    hits.slice(0, shownTransactions).forEach(function (row) {
      var data = row.data;
      var target = href(data[7]);
      if (!target) { return; }
      var item = document.createElement("li");
      var link = document.createElement("a");
      link.href = target;
      link.textContent = data[2];
      item.appendChild(link);
      item.appendChild(document.createTextNode(" "));
      item.appendChild(span("search-amount", data[4]));
      item.appendChild(document.createTextNode(" "));
      item.appendChild(span("search-kind", data[1]));
      if (data[3]) {
        item.appendChild(document.createTextNode(" "));
        item.appendChild(span("search-detail", data[3]));
      }
      item.appendChild(document.createTextNode(" "));
      item.appendChild(span("search-detail", data[6]));
      found.appendChild(item);
    });
    var more = hits.length - Math.min(hits.length, shownTransactions);
    var text = hits.length === 0 ? "No transaction found" : hits.length + (hits.length === 1 ? " transaction" : " transactions") + " found";
    if (more > 0) { text += "; the newest " + shownTransactions + " are shown, " + more + " more: type more to narrow them"; }
    text += loading ? " so far (searched " + chunksLoaded + " of " + chunksTotal + " parts)…" : ".";
    foundStatus.textContent = text;
  }

  function show() {
    var words = wordsOf(box.value);
    clear(list);
    showTransactions();
    if (words.length === 0) { status.textContent = ""; return; }
    var hits = folded.filter(function (item) {
      return words.every(function (word) { return item.text.indexOf(word) >= 0; });
    });
    // Titles that start with the first word, then titles that hold it, then the rest; each in the index's order.
    hits = hits.map(function (item, index) { return [rank(item, words[0]), index, item]; })
      .sort(function (a, b) { return a[0] - b[0] || a[1] - b[1]; })
      .map(function (ranked) { return ranked[2]; });
    hits.slice(0, shown).forEach(function (item) {
      var entry = item.entry;
      var target = href(entry[2]);
      if (!target) { return; }
      var row = document.createElement("li");
      var link = document.createElement("a");
      link.href = target;
      link.textContent = entry[1];
      row.appendChild(link);
      row.appendChild(document.createTextNode(" "));
      row.appendChild(span("search-kind", entry[0]));
      if (entry[3] && entry[3] !== entry[0]) {
        row.appendChild(document.createTextNode(" "));
        row.appendChild(span("search-detail", entry[3]));
      }
      list.appendChild(row);
    });
    if (hits.length === 0) {
      status.textContent = "No page found.";
    } else if (hits.length > shown) {
      status.textContent = "The first " + shown + " of " + hits.length + " pages found; type more to narrow them.";
    } else {
      status.textContent = hits.length + (hits.length === 1 ? " page found." : " pages found.");
    }
  }
  box.addEventListener("input", show);
  // Enter opens the first result.
  box.form.addEventListener("submit", function (event) {
    event.preventDefault();
    var first = list.querySelector("a") || (found && found.querySelector("a"));
    if (first) { window.location.href = first.href; }
  });
  var asked = new URLSearchParams(window.location.search).get("q");
  if (asked) { box.value = asked; }
  show();
})();
