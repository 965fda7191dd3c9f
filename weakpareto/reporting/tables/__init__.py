"""One module per paper table (or family of tables sharing their cells).

Each module builds its table from the results (runs, fronts or a diagnostics CSV) with the layout,
decimals and paper cells of its data file (:mod:`weakpareto.reporting.paper_values`) and the shared
writer (:mod:`weakpareto.reporting.latex`).
"""
