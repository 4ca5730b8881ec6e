// NestEgg's search index: the transactions of one page, a statement or the list (search.html).
window.nesteggSearchAdd("search/euro-travel/2026-10", [
["2026-10-24","24 Oct 2026","Personal","From Personal","€522.90","522.90","Euro Travel","statements/euro-travel/2026-10#line-1"],
]);
