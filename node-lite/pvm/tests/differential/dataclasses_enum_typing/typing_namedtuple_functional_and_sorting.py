from typing import NamedTuple


Pair = NamedTuple("Pair", [("key", str), ("score", int)])


class Employee(NamedTuple):
    name: str
    dept: str
    salary: int


def run():
    staff = [Employee("ann", "eng", 120), Employee("bob", "ops", 90), Employee("cy", "eng", 100)]
    by_salary = sorted(staff, key=lambda e: e.salary)
    by_default = sorted(staff, key=lambda e: (e.dept, -e.salary))
    out = [
        [e.name for e in by_salary],
        [e.name for e in by_default],
        [list(e) for e in sorted(staff)],
        repr(Pair("a", 1)),
        list(Pair._fields),
        {e.name: e.salary for e in staff},
        max(staff, key=lambda e: e.salary).name,
        tuple(Employee("z", "x", 1)._replace(salary=2)),
    ]
    try:
        class Bad(NamedTuple):
            a: int = 1
            b: int
    except TypeError as e:
        out.append(str(e))
    return out
