class HydraContext:
    def __init__(self, config_loader, callbacks=None):
        self.config_loader = config_loader
        self.callbacks = callbacks


TaskFunction = object
