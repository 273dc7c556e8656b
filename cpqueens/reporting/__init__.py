"""What a person reads: benches and search profiles with their tables and plots, campaign
plots, the HTML and Markdown report, text tables.

A thing measured and its views live together, apart from the others: a bench is run,
tabled and drawn in ``bench``, a search profile in ``profile``, a campaign's runs in
``campaign``; the report is gathered as data and rendered in ``page``.

Map: ``bench`` (backends timed side by side: ``runs``, ``tables``, ``plot``),
``profile`` (a search profile, nodes per depth under each propagation and order:
``profiles``, ``tables``, ``plot``), ``campaign`` (a campaign's judged runs read,
tabled, plotted, its phase transition, and written back as a spec), ``page`` (the
report: its data gathered once, rendered as HTML or Markdown, the machine and the
solver programs it ran on), ``solution_text`` (the solutions of a Result as text in
every format), ``tables`` (text for the terminal), ``effort`` (one word for search
effort), ``style`` (one colour and one marker per backend), ``figures`` (matplotlib
figures drawn without pyplot).
"""
