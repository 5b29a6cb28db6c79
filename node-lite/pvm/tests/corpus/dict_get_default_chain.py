def run():
    cfg = {"db": {"host": "x", "port": 5432}}
    return [cfg.get("db", {}).get("port"), cfg.get("cache", {}).get("ttl", 60), "db" in cfg and "user" not in cfg["db"]]
