"""Benchmark campaigns as solver competitions run them: instances x solvers, every run
isolated under limits (:mod:`.isolation`, :mod:`.warm_process`, :mod:`.execute`) on local
threads or a Dask cluster (:mod:`.workers`), every answer judged (:mod:`.run_verdicts`)
and across runs (:mod:`.verify`), results in an SQLite file (:mod:`.store`), summaries
with PAR-2 and the virtual best solver (:mod:`.summary`); the cactus, scatter and
transition plots are drawn by :mod:`cpqueens.reporting.campaign.plots`. A campaign is
described in TOML (:mod:`.spec`) and run by :func:`run_campaign` (:mod:`.runner`).

Map: ``spec`` (a campaign's description: its question and limits, its instances, its
solvers, checked as it is read), ``program_solvers`` (its solvers that are programs,
``command = ...`` and ``flatzinc = ...``), ``fingerprints`` (the content of a model file a
solver names, part of its configuration), ``pricing`` (what a spec costs, counted before
anything of it is built), ``runner`` (every run not yet in the store, run and recorded),
``workers`` (where runs happen: local threads or a Dask cluster's workers), ``isolation``
(a run in a process of its own under a wall-time and a memory limit), ``warm_process``
(the warm process that forks one child per run), ``execute`` (one run inside its own
process: the solver asked, its answer reported), ``run_verdicts`` (one run judged: its
status, every board it reports checked against its instance), ``verify`` (runs judged in
the light of the others), ``certificates`` (each instance's answer proved once, and every
run held to the proof), ``store`` (the results store, one SQLite row per finished run),
``store_schema`` (which files a store is opened on, and how), ``shared_runs`` (the runs of
one campaign shared between processes on one store), ``summary`` (solved, statuses,
PAR-2, the virtual best solver).
"""

from .runner import CampaignReport, load_results, run_campaign
from .spec import CampaignSpec, load_spec

__all__ = ["CampaignReport", "CampaignSpec", "load_results", "load_spec", "run_campaign"]
