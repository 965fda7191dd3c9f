"""Static HTML pages of results: ``wp report``'s results page and ``wp discover``'s fit page.

* :mod:`~weakpareto.reporting.html.page`: the page builder (escaped elements, tables, figures,
  one document with inline CSS and no script);
* :mod:`~weakpareto.reporting.html.style`: the style sheet;
* :mod:`~weakpareto.reporting.html.md_blocks`: the package's Markdown read back and rendered;
* :mod:`~weakpareto.reporting.html.comparison`: a paper-vs-ours table as a grid with marked cells;
* :mod:`~weakpareto.reporting.html.known_differences`: the recorded reasons for differing cells;
* :mod:`~weakpareto.reporting.html.paper_tables`: the paper tables of the results page;
* :mod:`~weakpareto.reporting.html.beyond`: the committed tables beyond the paper;
* :mod:`~weakpareto.reporting.html.provenance`: code hash, date, machine, stale runs;
* :mod:`~weakpareto.reporting.html.site`: :func:`~weakpareto.reporting.html.site.write_site`,
  the results page.
"""
