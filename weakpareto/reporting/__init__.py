"""The paper's tables and figures from the results (``wp report``).

Layout of the subpackage:

* :mod:`~weakpareto.reporting.render`: :func:`~weakpareto.reporting.render.render_all`, the
  ``wp report`` driver;
* :mod:`~weakpareto.reporting.tables`: one module per paper table (or family of tables);
* :mod:`~weakpareto.reporting.studies`: the study tables beyond the paper (``.md``/``.tex``),
  rendered from the CSV and sidecar JSON their scripts write;
* :mod:`~weakpareto.reporting.figures`: fig:robustness and fig:burgers (matplotlib);
* :mod:`~weakpareto.reporting.latex`: the one booktabs table writer and the LaTeX cell helpers;
* :mod:`~weakpareto.reporting.markdown`: the paper-vs-ours comparison notes;
* :mod:`~weakpareto.reporting.paper_values`: loader of ``paper/*.yaml``, the transcribed paper
  cells, layouts and decimals (data, one file per table);
* :mod:`~weakpareto.reporting.output`: atomic writing of a table's two files;
* :mod:`~weakpareto.reporting.html`: the static results page (``<html_dir>/index.html``) and the
  page builder of ``wp discover``'s fit page.

``report``, ``twod``, ``twod_extra``, ``forward`` and ``diagnostics`` are deprecated aliases of the
old module paths, kept only until the callers outside this subpackage have migrated.
"""
