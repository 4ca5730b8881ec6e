// NestEgg's search page: filters the entries of search-index.js as you type. Everything happens in
// the page: no request leaves it, so it works from a file as from a static host. Results are made
// with text nodes only, never parsed as HTML.
(function () {
  "use strict";
  var entries = window.nesteggSearch || [];
  var box = document.getElementById("search-box");
  var list = document.getElementById("search-results");
  var status = document.getElementById("search-status");
  if (!box || !list || !status) { return; }
  var shown = 50;
  // Case and accents do not count: "cafe" finds "Café".
  function fold(text) { return text.normalize("NFD").replace(/[\u0300-\u036f]/g, "").toLowerCase(); }
  var folded = entries.map(function (entry) {
    return { entry: entry, title: fold(entry[1]), text: fold(entry[1] + " " + entry[0] + " " + entry[3]) };
  });
  function rank(item, word) {
    if (item.title.indexOf(word) === 0) { return 0; }
    return item.title.indexOf(word) >= 0 ? 1 : 2;
  }
  function show() {
    var words = fold(box.value).split(/\s+/).filter(function (word) { return word.length > 0; });
    while (list.firstChild) { list.removeChild(list.firstChild); }
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
      // Pages are site-relative paths of letters, digits and - . /: anything else is not a page.
      if (!/^[A-Za-z0-9][A-Za-z0-9._\/-]*$/.test(entry[2])) { return; }
      var row = document.createElement("li");
      var link = document.createElement("a");
      link.href = entry[2] + ".html";
      link.textContent = entry[1];
      var kind = document.createElement("span");
      kind.className = "search-kind";
      kind.textContent = entry[0];
      row.appendChild(link);
      row.appendChild(document.createTextNode(" "));
      row.appendChild(kind);
      if (entry[3] && entry[3] !== entry[0]) {
        var detail = document.createElement("span");
        detail.className = "search-detail";
        detail.textContent = entry[3];
        row.appendChild(document.createTextNode(" "));
        row.appendChild(detail);
      }
      list.appendChild(row);
    });
    if (hits.length === 0) {
      status.textContent = "Nothing found.";
    } else if (hits.length > shown) {
      status.textContent = "The first " + shown + " of " + hits.length + " found; type more to narrow them.";
    } else {
      status.textContent = hits.length + " found.";
    }
  }
  box.addEventListener("input", show);
  // Enter opens the first result.
  box.form.addEventListener("submit", function (event) {
    event.preventDefault();
    var first = list.querySelector("a");
    if (first) { window.location.href = first.href; }
  });
  var asked = new URLSearchParams(window.location.search).get("q");
  if (asked) { box.value = asked; }
  show();
})();
