// NestEgg's search index: the transactions of one page, a statement or the list (search.html).
window.nesteggSearchAdd("search/transactions/index", [
["2026-11-10","10 Nov 2026","Weekly shop","Food · Waitrose","£32.47","-32.47","Visa Gold","transactions/index#row-40"],
["2026-11-11","11 Nov 2026","Game","Entertainment · Amazon","£57.67","-57.67","Visa Gold","transactions/index#row-32"],
["2026-11-12","12 Nov 2026","Pharmacy","Health · Boots","£16.55","-16.55","Mastercard","transactions/index#row-30"],
["2026-11-12","12 Nov 2026","Weekly shop","Food · Waitrose","£72.48","-72.48","Visa Gold","transactions/index#row-27"],
["2026-11-13","13 Nov 2026","Pharmacy","Health · Boots","£8.11","-8.11","Mastercard","transactions/index#row-26"],
["2026-11-14","14 Nov 2026","Taxi","Travel · Uber","£15.59","-15.59","Mastercard","transactions/index#row-23"],
["2026-11-14","14 Nov 2026","Household bits","Shopping · John Lewis","£44.05","-44.05","Current account","transactions/index#row-21"],
["2026-11-15","15 Nov 2026","Pharmacy","Health · Boots","£15.48","-15.48","Mastercard","transactions/index#row-18"],
["2026-11-16","16 Nov 2026","Weekly shop","Food · Waitrose","£97.51","-97.51","Visa Gold","transactions/index#row-14"],
["2026-11-17","17 Nov 2026","Pharmacy","Health · Boots","£14.46","-14.46","Mastercard","transactions/index#row-11"],
["2026-11-19","19 Nov 2026","Taxi","Travel · Uber","£18.41","-18.41","Mastercard","transactions/index#row-8"],
["2026-11-20","20 Nov 2026","Weekly shop","Food · Waitrose","£89.76","-89.76","Visa Gold","transactions/index#row-5"],
["2026-11-20","20 Nov 2026","Lunch","Food · Burger King","£13.37","-13.37","Mastercard","transactions/index#row-4"],
["2026-11-20","20 Nov 2026","Dishoom","Eating out (pending)","£18.75","-18.75","Personal","transactions/index#row-1"],
]);
