"""Hydra's ``hydra/launcher=berth``: a multirun as one Berth run (see berth_launcher.py)."""
