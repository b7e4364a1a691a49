class Launcher:
    def setup(self, *, hydra_context, task_function, config):
        raise NotImplementedError()

    def launch(self, job_overrides, initial_job_idx):
        raise NotImplementedError()
