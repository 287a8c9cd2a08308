#!/usr/bin/env python3
"""Writes the small seed inputs of fuzz/corpus/<harness>/ (standard library only).

Every seed is synthetic: a few tiny frames with a deterministic sample
pattern, one per Y4M chroma tag / raw format, plus a few malformed inputs.
Run from anywhere: python3 fuzz/make_seeds.py
"""
import os
import struct

HERE = os.path.dirname(os.path.abspath(__file__))

# tag -> (chroma x shift, chroma y shift, planes, bits)
Y4M_TAGS = {
    "420jpeg": (1, 1, 3, 8), "420mpeg2": (1, 1, 3, 8), "420paldv": (1, 1, 3, 8),
    "420": (1, 1, 3, 8), "422": (1, 0, 3, 8), "444": (0, 0, 3, 8), "mono": (0, 0, 1, 8),
    "420p10": (1, 1, 3, 10), "420p12": (1, 1, 3, 12), "420p16": (1, 1, 3, 16),
    "422p10": (1, 0, 3, 10), "422p12": (1, 0, 3, 12), "444p10": (0, 0, 3, 10),
    "444p12": (0, 0, 3, 12), "444p16": (0, 0, 3, 16), "mono12": (0, 0, 1, 12),
    "420p9": (1, 1, 3, 9),
}


def samples(count, bits, seed):
    top = (1 << bits) - 1
    vals = [(seed * 37 + i * 11) % (top + 1) for i in range(count)]
    if bits == 8:
        return bytes(vals)
    return b"".join(struct.pack("<H", v) for v in vals)


def planes(w, h, sx, sy, nplanes, bits, seed, ceil_chroma):
    cw = (w + sx) >> sx if ceil_chroma else w >> sx
    ch = (h + sy) >> sy if ceil_chroma else h >> sy
    out = samples(w * h, bits, seed)
    for p in range(1, nplanes):
        out += samples(cw * ch, bits, seed + p)
    return out


def write(folder, name, data):
    path = os.path.join(HERE, "corpus", folder)
    os.makedirs(path, exist_ok=True)
    with open(os.path.join(path, name), "wb") as f:
        f.write(data)


def y4m(w, h, tag, frames, extra=""):
    sx, sy, n, bits = Y4M_TAGS[tag]
    out = f"YUV4MPEG2 W{w} H{h} F25:1 Ip A1:1 C{tag}{extra}\n".encode()
    for i in range(frames):
        out += b"FRAME\n" + planes(w, h, sx, sy, n, bits, i, True)
    return out


def main():
    for tag in Y4M_TAGS:
        write("y4m", f"c{tag}_4x2.y4m", y4m(4, 2, tag, 2))
    write("y4m", "c420_3x3_odd.y4m", y4m(3, 3, "420", 2))
    write("y4m", "c422_5x1_odd.y4m", y4m(5, 1, "422", 2))
    write("y4m", "c444p10_xtag.y4m", y4m(2, 2, "444p10", 1, " XYSCSS=444P10"))
    write("y4m", "no_chroma_tag.y4m", b"YUV4MPEG2 W2 H2 F25:1\nFRAME\n" + bytes(6))
    write("y4m", "frame_params.y4m", b"YUV4MPEG2 W2 H2 C444\nFRAME Ip XA=1\n" + bytes(12))
    write("y4m", "truncated.y4m", y4m(4, 2, "420", 2)[:-3])
    write("y4m", "interlaced.y4m", b"YUV4MPEG2 W2 H2 It C420jpeg\nFRAME\n" + bytes(6))
    write("y4m", "bad_frame.y4m", b"YUV4MPEG2 W2 H2 C420jpeg\nFRAMX\n" + bytes(6))

    # fuzz_raw: width hi, width lo, height hi, height lo, format | (bpc - 7) << 2,
    # buffer size byte; then the file.
    formats = {"400": (0, 0, 0, 1), "420": (1, 1, 1, 3), "422": (2, 1, 0, 3), "444": (3, 0, 0, 3)}
    for name, (code, sx, sy, n) in formats.items():
        for bits in (8, 10, 16):
            for w, h in ((4, 2), (3, 3)):
                head = bytes([0, w, 0, h, code | (bits - 7) << 2, 7])
                body = b"".join(planes(w, h, sx, sy, n, bits, i, False) for i in range(2))
                write("raw", f"p{name}_{bits}b_{w}x{h}", head + body)
    write("raw", "p420_8b_truncated", bytes([0, 4, 0, 2, 1 | 1 << 2, 3]) + bytes(13))
    write("raw", "tall_1x600", bytes([0, 1, 2, 88, 3 | 1 << 2, 100]) + bytes(1800))

    options = {
        "gain": b"adm_enhn_gain_limit=1.2\n",
        "all": b"adm_enhn_gain_limit=1.5\nadm_norm_view_dist=3.0\nadm_ref_display_height=2160\n"
               b"adm_csf_mode=3\nadm_skip_scale0=true\ndebug=1\n",
        "bad": b"adm_enhn_gain_limit=abc\nadm_csf_mode=1.5\nnope=1\ndebug=yes\n",
        "edge": b"adm_enhn_gain_limit=1e308\nadm_norm_view_dist=-0\nadm_ref_display_height=2147483648\n"
                b"adm_enhn_gain_limit=nan\nadm_norm_view_dist=0x1p2\n",
    }
    options.update({
        "feature_adm": b"adm=adm_enhn_gain_limit=1.2:adm_csf_mode=3\n",
        "feature_plain": b"psnr\nfloat_ssim\nmotion=motion_force_zero=true\n",
        "feature_bad": b"adm=\nadm=:\nadm=x\n=1\nvif=vif_enhn_gain_limit=abc\n",
        "model": b"version=vmaf_v0.6.1:name=foo:disable_clip:adm.adm_enhn_gain_limit=1.2\n"
                 b"path=/nonexistent.json:enable_transform=false\nversion=\n::\n",
    })
    for name, text in options.items():
        write("options", name, text)

    # A small model of our own (two features, two support vectors), and
    # variants: bootstrap collection, transform and clip, broken fields.
    svm = ("svm_type nu_svr\\nkernel_type rbf\\ngamma 0.05\\nnr_class 2\\ntotal_sv 2\\n"
           "rho -1.5\\nSV\\n2.0 1:0.5 2:0.25 \\n-1.0 1:0.75 2:0.125 \\n")
    dict_ = ('"model_type": "LIBSVMNUSVR", "norm_type": "linear_rescale", '
             '"feature_names": ["VMAF_integer_feature_adm2_score", '
             '"VMAF_integer_feature_motion2_score"], '
             '"slopes": [-0.5, 1.0, 0.05], "intercepts": [0.2, -0.1, 0.0], ')
    models = {
        "plain": '{"model_dict": {%s"score_clip": [0.0, 100.0], "model": "%s"}}' % (dict_, svm),
        "transform": '{"model_dict": {%s"score_transform": {"enabled": true, "p0": 1.0, '
                     '"p1": 0.9, "p2": 0.001, "out_lte_in": "true"}, "model": "%s"}}' % (dict_, svm),
        "bootstrap": '{"model_type": "RESIDUEBOOTSTRAP_LIBSVMNUSVR", "model_dict": {%s"model": '
                     '"%s"}, "models": [{"model_dict": {%s"model": "%s"}}]}' % (dict_, svm, dict_, svm),
        "bad_sizes": '{"model_dict": {%s"model": "%s", "slopes": [1]}}' % (dict_, svm),
        "huge": '{"model_dict": {%s"model": "%s"}}' % (dict_, svm.replace("gamma 0.05", "gamma -1e300")),
        "not_json": '{"model_dict": [1, 2',
    }
    for name, text in models.items():
        write("model", name, text.encode())

    # Pipeline: w, h, format, depth, frames, feature bits, threads, model; samples.
    heads = {
        "small_420_8": bytes([16, 16, 0, 0, 1, 0xff, 0, 0]),
        "tiny_refused": bytes([3, 5, 1, 2, 0, 0x01, 1, 1]),
        "mono_16": bytes([40, 19, 3, 4, 2, 0x80, 2, 2]),
        "444_10_neg": bytes([23, 33, 2, 2, 1, 0x0f, 1, 2]),
    }
    for name, head in heads.items():
        write("pipeline", name, head + bytes((i * 37) % 256 for i in range(1500)))


if __name__ == "__main__":
    main()
