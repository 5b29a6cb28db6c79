from typing import TypedDict, get_type_hints


class Movie(TypedDict):
    title: str
    year: int


class PartialMovie(TypedDict, total=False):
    title: str
    rating: int


class Review(Movie, total=False):
    stars: int


def run():
    m: Movie = {"title": "Up", "year": 2009}
    m2 = Movie(title="Cars", year=2006)
    r: Review = {"title": "X", "year": 1, "stars": 5}
    return [
        m,
        m2,
        type(m2).__name__,
        isinstance(m, dict),
        sorted(Movie.__required_keys__),
        sorted(PartialMovie.__optional_keys__),
        sorted(PartialMovie.__required_keys__),
        sorted(Review.__required_keys__),
        sorted(Review.__optional_keys__),
        {k: repr(v) for k, v in get_type_hints(Review).items()},
        r.get("stars"),
        Movie.__total__,
        PartialMovie.__total__,
    ]
