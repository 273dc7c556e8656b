"""Benchmark campaigns as solver competitions run them: instances x solvers, every run
isolated under limits (:mod:`.isolation`, :mod:`.zygote`, :mod:`.execute`) on local
threads or a Dask cluster (:mod:`.workers`), every answer judged by the checking
family (:mod:`cpqueens.campaigns.run_verdicts`) and across runs (:mod:`.verify`),
results in an SQLite file (:mod:`.store`), summaries with PAR-2 and the virtual best
solver (:mod:`.summary`); the cactus, scatter and transition plots are drawn by
:mod:`cpqueens.reporting.campaign_plots`. A campaign is described in TOML
(:mod:`.spec`) and run by :func:`run_campaign` (:mod:`.runner`).
"""

from .runner import CampaignReport, load_results, run_campaign
from .spec import CampaignSpec, load_spec

__all__ = ["CampaignReport", "CampaignSpec", "load_results", "load_spec", "run_campaign"]
