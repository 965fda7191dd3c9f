"""The study tables beyond the paper, rendered from the files their scripts write.

A study script (``scripts/``) computes and writes its table's data: ``<stem>.csv`` and, when the
text needs values that are not columns of the CSV (a truth equation, a timing summary, the
tolerances named in a note), a small sidecar ``<stem>.json`` beside it. The ``.md`` (and
``.tex``) of the table are rendered here from those files alone, by the script right after it
writes them and again by ``wp report``
(:func:`~weakpareto.reporting.studies.registry.write_study_tables`), so both write the same
bytes.

* :mod:`~weakpareto.reporting.studies.common`: number cells, pipe tables, LaTeX tabulars, the
  CSV and sidecar readers;
* :mod:`~weakpareto.reporting.studies.independent`: tab_independent;
* :mod:`~weakpareto.reporting.studies.model_class`: tab_model_class;
* :mod:`~weakpareto.reporting.studies.measurement`: tab_experiments, tab_history, tab_irregular;
* :mod:`~weakpareto.reporting.studies.beyond`: tab_beyond;
* :mod:`~weakpareto.reporting.studies.uncertainty`: tab_uncertainty and tab_calibration;
* :mod:`~weakpareto.reporting.studies.bench`: the comparisons and timings in ``results/bench``;
* :mod:`~weakpareto.reporting.studies.registry`: every study table, where it lives, and the
  writers.
"""
