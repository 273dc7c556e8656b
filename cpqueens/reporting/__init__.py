"""What a person reads: benches and search profiles with their tables and plots, campaign
plots, the HTML and Markdown report, text tables.

A thing measured and its views live apart: a bench is run in ``bench``, shown in
``bench_tables`` and drawn in ``bench_plot``; a search profile likewise (``profile``,
``profile_tables``, ``profile_plot``); a campaign's runs are read in ``campaign_runs``
and ``phase_transition`` and drawn in ``campaign_plots``. The report is gathered as
data in ``report_data`` and rendered in ``report_page``.
"""
