class ConfigStore:
    _instance = None

    def __init__(self):
        self.repo = {}

    @classmethod
    def instance(cls):
        if cls._instance is None:
            cls._instance = cls()
        return cls._instance

    def store(self, name, node, group=None, package=None, provider=None):
        self.repo["%s/%s" % (group, name)] = {"node": node, "provider": provider}
