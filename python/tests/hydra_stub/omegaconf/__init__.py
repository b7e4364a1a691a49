"""Stand-in for omegaconf: a DictConfig with attribute access, and open_dict."""
import contextlib
import copy


class DictConfig(dict):
    def __getattr__(self, name):
        try:
            return self[name]
        except KeyError as error:
            raise AttributeError(name) from error

    def __setattr__(self, name, value):
        self[name] = value

    def __setitem__(self, name, value):
        super().__setitem__(name, make(value))


def make(tree):
    if isinstance(tree, dict):
        return DictConfig({k: make(v) for k, v in tree.items()})
    return tree


class OmegaConf:
    @staticmethod
    def is_config(value):
        return isinstance(value, DictConfig)

    @staticmethod
    def to_container(value, resolve=False):
        if isinstance(value, dict):
            return {k: OmegaConf.to_container(v) for k, v in value.items()}
        return value

    @staticmethod
    def create(tree):
        return make(copy.deepcopy(tree))


@contextlib.contextmanager
def open_dict(config):
    yield config
