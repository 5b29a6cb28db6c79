from typing import List, Dict, Optional, Tuple

def summarize(xs: List[int], label: Optional[str] = None) -> Dict[str, int]:
    return {"n": len(xs), "sum": sum(xs)}

def pair() -> Tuple[int, str]:
    return (1, "a")

def run():
    return [summarize([1, 2, 3]), list(pair())]
