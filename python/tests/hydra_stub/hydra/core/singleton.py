class Singleton(type):
    _state = {"instances": {}}

    @staticmethod
    def get_state():
        return dict(Singleton._state)

    @staticmethod
    def set_state(state):
        Singleton._state = dict(state)
