class ContractError(Exception):
    pass


class PermissionDenied(ContractError):
    pass


class NotOwner(PermissionDenied):
    pass


def classify(exc):
    try:
        raise exc
    except NotOwner:
        return "not-owner"
    except PermissionDenied:
        return "permission"
    except ContractError:
        return "contract"
    except LookupError:
        return "lookup"
    except Exception:
        return "other"


def broad_first(exc):
    try:
        raise exc
    except ContractError:
        return "contract"
    except NotOwner:
        return "unreachable"


def run():
    return [
        classify(NotOwner()),
        classify(PermissionDenied()),
        classify(ContractError()),
        classify(KeyError("k")),
        classify(IndexError()),
        classify(ZeroDivisionError()),
        broad_first(NotOwner()),
        [c.__name__ for c in NotOwner.mro()],
        issubclass(KeyError, LookupError),
        issubclass(ZeroDivisionError, ArithmeticError),
        isinstance(NotOwner(), PermissionDenied),
    ]
