import hydra
from omegaconf import DictConfig

@hydra.main(version_base="1.3", config_path="pkg://weakpareto.conf", config_name="config")
def _main(cfg: DictConfig) -> None:
    print(cfg.benchmark.name, cfg.seed)

def main() -> None:
    _main()
