"""The inline style sheet of the report pages (no external fonts, no network).

Cell marks: ``same`` (our cell equals the paper's at its precision), ``differs`` (it does not),
``no-paper`` (the paper has no value), ``not-compared`` (shown side by side, not compared, e.g.
timings); ``stale`` marks runs computed by other code than the current one.
"""

from __future__ import annotations

CSS = """
:root { --ink: #1d2327; --muted: #5f6b73; --line: #d5dbe0; --head: #eef2f5;
  --same: #e8f5e9; --differs: #fde7d9; --differs-ink: #8a3200; --nopaper: #f3f3f3;
  --stale: #fff3c4; --link: #0b5cad; }
* { box-sizing: border-box; }
body { margin: 0; color: var(--ink); background: #fff;
  font: 14px/1.45 system-ui, -apple-system, "Segoe UI", Roboto, "DejaVu Sans", sans-serif; }
header, section, nav.toc { max-width: 1180px; margin: 0 auto; padding: 0 20px; }
header { padding-top: 18px; border-bottom: 2px solid var(--ink); padding-bottom: 8px; }
h1 { font-size: 22px; margin: 0 0 4px; }
h2 { font-size: 19px; margin: 28px 0 8px; padding-top: 8px; border-top: 1px solid var(--line); }
h3 { font-size: 16px; margin: 22px 0 6px; }
h4 { font-size: 14px; margin: 14px 0 4px; color: var(--muted); }
p { margin: 6px 0; }
a { color: var(--link); }
code { font: 12px/1.3 "DejaVu Sans Mono", Menlo, Consolas, monospace; background: #f5f7f8;
  padding: 0 2px; word-break: break-word; }
nav.toc ol { columns: 3; margin: 10px 0; padding-left: 22px; }
.subtitle { color: var(--muted); margin: 2px 0; }
.scroll { overflow-x: auto; margin: 6px 0 10px; }
table.data { border-collapse: collapse; font-size: 12.5px; }
table.data th, table.data td { border: 1px solid var(--line); padding: 3px 7px;
  vertical-align: top; text-align: left; }
table.data thead th { background: var(--head); position: sticky; top: 0; }
table.data tbody th { background: #fafbfc; font-weight: 600; white-space: nowrap; }
td.row-name { font-weight: 600; background: #fafbfc; white-space: nowrap; }
p.caption { font-style: italic; color: #33403f; }
p.table-links { font-size: 13px; line-height: 1.8; }
td.same { background: var(--same); }
td.differs { background: var(--differs); }
td.differs .ours { color: var(--differs-ink); font-weight: 600; }
td.no-paper { background: var(--nopaper); }
td .paper { display: block; color: var(--muted); font-size: 11px; }
td .reason-ref { font-size: 10px; vertical-align: super; margin-left: 2px; }
tr.stale td { background: var(--stale); }
tr.selected td { background: #e3efff; font-weight: 600; }
td.warning { color: #8a3200; font-weight: 600; }
.legend span { display: inline-block; padding: 1px 8px; margin-right: 6px;
  border: 1px solid var(--line); font-size: 12px; }
.legend .same { background: var(--same); }
.legend .differs { background: var(--differs); }
.legend .no-paper { background: var(--nopaper); }
.legend .stale { background: var(--stale); }
.summary { font-weight: 600; }
ol.reasons { font-size: 12.5px; margin: 4px 0 10px; }
.notes { font-size: 12.5px; color: #33403f; }
.notes li { margin: 3px 0; }
.missing { color: #8a3200; font-style: italic; }
.warning { color: #8a3200; }
.info { color: var(--muted); }
figure { margin: 10px 0; }
.row { display: flex; flex-wrap: wrap; gap: 8px 28px; align-items: flex-start; }
.row > div { flex: 0 1 auto; min-width: 0; }
.row > div:first-child { max-width: 560px; }
figure img { max-width: 100%; height: auto; border: 1px solid var(--line); }
figcaption { font-size: 12px; color: var(--muted); }
dl.facts { display: grid; grid-template-columns: max-content 1fr; gap: 2px 14px; margin: 6px 0; }
dl.facts dt { font-weight: 600; }
dl.facts dd { margin: 0; }
.equation { font: 15px/1.4 "DejaVu Sans Mono", Menlo, Consolas, monospace;
  background: #f5f7f8; padding: 6px 10px; border-left: 3px solid var(--link); }
@media print { nav.toc { display: none; } table.data thead th { position: static; } }
"""
