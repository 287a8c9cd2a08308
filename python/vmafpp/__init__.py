"""VMAF video quality, bit-exact with libvmaf 3.2.0 (vmafpp's Python module).

    import vmafpp
    result = vmafpp.score("ref.y4m", "dis.y4m", features=["psnr"], threads=4)
    print(result["pooled_metrics"]["vmaf"]["mean"])

score() also takes numpy frames ((N, H, W) luma or (Y, U, V) planes, uint8,
or uint16 with bitdepth=); Scorer takes frames one by one. Errors raise
vmafpp.Error with the CLI's one-line message.
"""
from ._vmafpp import Error, Scorer, __version__, builtin_models, score, version

__all__ = ["Error", "Scorer", "builtin_models", "score", "version", "to_dataframe"]


def to_dataframe(result):
    """Per-frame metrics of a score()/Scorer.finish() result as a pandas
    DataFrame indexed by frame number (needs pandas)."""
    import pandas as pd  # optional dependency, imported on use

    rows = {f["frameNum"]: f["metrics"] for f in result["frames"]}
    return pd.DataFrame.from_dict(rows, orient="index").rename_axis("frameNum")
