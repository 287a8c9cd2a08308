// vmafpp: a drop-in for libvmaf's `vmaf` command line tool.
#include <unistd.h>

#include <chrono>
#include <cstdio>
#include <fstream>
#include <iostream>
#include <string>
#include <vector>

#include <CLI/CLI.hpp>

#include "vmafpp/cpu.hpp"
#include "vmafpp/output.hpp"
#include "vmafpp/vmafpp.hpp"

namespace {

struct Settings {
    std::string ref, dis, output;
    unsigned width = 0, height = 0, bitdepth = 0;
    std::string pixel_format;
    std::vector<std::string> models, features;
    vmafpp::OutputFormat format = vmafpp::OutputFormat::xml;
    std::string precision = "legacy";
    unsigned threads = 0, subsample = 1, cpumask = 0, gpumask = 0, device = 0;
    std::string backend = "cpu";
    unsigned frame_cnt = 0, frame_skip_ref = 0, frame_skip_dist = 0;
    bool no_prediction = false, quiet = false;
};

vmafpp::PixelFormat parse_pixel_format(const std::string& p) {
    if (p == "420") return vmafpp::PixelFormat::yuv420;
    if (p == "422") return vmafpp::PixelFormat::yuv422;
    if (p == "444") return vmafpp::PixelFormat::yuv444;
    if (p == "400") return vmafpp::PixelFormat::yuv400;
    throw vmafpp::Error("--pixel_format/-p: \"" + p + "\" is not 420, 422, 444 or 400");
}

// libvmaf accepts a raw bit depth of 8, 10, 12 or 16; we take any of 8..16.
vmafpp::RawFormat raw_format(const Settings& s) {
    const bool any = s.width || s.height || s.bitdepth || !s.pixel_format.empty();
    if (!any) return {};
    if (!(s.width && s.height && s.bitdepth && !s.pixel_format.empty()))
        throw vmafpp::Error(
            "raw YUV input needs all of --width/-w, --height/-h, --pixel_format/-p and "
            "--bitdepth/-b");
    if (s.bitdepth < 8 || s.bitdepth > 16)
        throw vmafpp::Error("--bitdepth/-b: " + std::to_string(s.bitdepth) +
                            " is not a bit depth from 8 to 16");
    return {int(s.width), int(s.height), int(s.bitdepth), parse_pixel_format(s.pixel_format)};
}

// "cpu" or "cpu, vulkan, ...": what --backend accepts in this build.
std::string built_backend_names() {
    std::string out;
    for (vmafpp::Backend b : vmafpp::built_backends())
        out += (out.empty() ? "" : ", ") + std::string(vmafpp::backend_name(b));
    return out;
}

// --aom_ctc / --nflx_ctc presets expand into models and features, as libvmaf's.
void apply_ctc(Settings& s, const std::string& which, const std::string& v) {
    if (which == "nflx") {
        if (v != "v1.0") throw vmafpp::Error("--nflx_ctc: unknown version \"" + v + "\" (v1.0)");
        s.models.push_back("version=vmaf_4k_v0.6.1:name=vmaf");
        s.models.push_back("version=vmaf_4k_v0.6.1neg:name=vmaf_neg");
        return;
    }
    static const char* kVersions[] = {"v1.0", "v2.0", "v3.0", "v4.0", "v5.0", "v6.0", "v7.0"};
    bool known = false;
    for (const char* k : kVersions) known |= v == k;
    if (!known) throw vmafpp::Error("--aom_ctc: unknown version \"" + v + "\" (v1.0 .. v7.0)");
    s.models.push_back("version=vmaf_v0.6.1:name=vmaf");
    s.models.push_back("version=vmaf_v0.6.1neg:name=vmaf_neg");
}

class Progress {
public:
    explicit Progress(bool enabled) : enabled_(enabled), t0_(std::chrono::steady_clock::now()) {}
    void operator()(unsigned frames) {
        if (!enabled_) return;
        const double s =
            std::chrono::duration<double>(std::chrono::steady_clock::now() - t0_).count();
        if (frames % 10 != 0 && frames > 1) return;
        std::fprintf(stderr, "\r%u frame%s %.2f FPS\033[K", frames, frames == 1 ? " " : "s",
                     s > 0 ? frames / s : 0.0);
        std::fflush(stderr);
    }
    void done() {
        if (enabled_) std::fputc('\n', stderr);
    }

private:
    bool enabled_;
    std::chrono::steady_clock::time_point t0_;
};

void write_output(const std::string& path, const vmafpp::Results& results,
                  vmafpp::OutputFormat format, vmafpp::Precision precision) {
    if (path == "-") {
        vmafpp::write_results(std::cout, results, format, precision);
        std::cout.flush();
        return;
    }
    std::ofstream out(path, std::ios::binary);
    if (!out) throw vmafpp::Error("cannot write output file " + path);
    vmafpp::write_results(out, results, format, precision);
    out.close();
    if (!out) throw vmafpp::Error("error writing output file " + path);
}

// The pooled model scores; for a bootstrap collection its bagged score and
// confidence interval rather than every member.
std::vector<std::string> summary_lines(const vmafpp::ScoreRun& run, const vmafpp::Results& r) {
    std::vector<std::string> lines;
    for (const auto& m : run.models) {
        lines.push_back(vmafpp::summary_line(r, m.name()));
        if (!m.is_collection()) continue;
        for (const char* suffix : {"_bagging", "_stddev", "_ci_p95_lo", "_ci_p95_hi"})
            lines.push_back(vmafpp::summary_line(r, m.name() + suffix));
    }
    return lines;
}

int run(const Settings& s) {
    // Each worker holds its own extractor buffers (tens of MB at 2160p).
    if (s.threads > 256)
        throw vmafpp::Error("--threads " + std::to_string(s.threads) + " is more than 256");
    const vmafpp::RawFormat raw = raw_format(s);
    const vmafpp::Precision precision = vmafpp::parse_precision(s.precision);

    vmafpp::ScoreConfig cfg;
    for (const auto& m : s.models) cfg.models.push_back(vmafpp::parse_model_config(m));
    cfg.no_prediction = s.no_prediction;
    cfg.features = s.features;
    cfg.compute.backend = vmafpp::parse_backend(s.backend);
    cfg.compute.cpumask = s.cpumask;
    cfg.compute.gpumask = s.gpumask;
    cfg.compute.device = s.device;
    cfg.threads = s.threads;
    cfg.subsample = s.subsample;
    cfg.frame_cnt = s.frame_cnt;
    cfg.frame_skip_ref = s.frame_skip_ref;
    cfg.frame_skip_dist = s.frame_skip_dist;

    auto ref = vmafpp::open_video(s.ref, raw);
    auto dis = vmafpp::open_video(s.dis, raw);

    Progress progress(isatty(STDERR_FILENO) && !s.quiet);
    cfg.on_frame = [&](unsigned n) { progress(n); };
    cfg.on_warning = [](const std::string& w) { std::fprintf(stderr, "vmafpp: warning: %s\n", w.c_str()); };
    vmafpp::ScoreRun run = vmafpp::score(*ref, *dis, cfg);
    progress.done();

    const vmafpp::Results results = run.results();
    if (!s.output.empty()) write_output(s.output, results, s.format, precision);
    // Scripts read the pooled scores from stdout unless the results go there.
    if (s.output != "-" && s.output != "/dev/stdout")
        for (const auto& line : summary_lines(run, results)) std::printf("%s\n", line.c_str());
    return 0;
}

}  // namespace

int main(int argc, char** argv) {
    Settings s;
    CLI::App app{"vmafpp " + vmafpp::version() +
                 ": VMAF video quality, drop-in compatible with libvmaf's vmaf tool"};
    app.set_help_flag("--help", "print this help and exit");
    app.option_defaults()->always_capture_default();
    app.add_option("-r,--reference", s.ref, "reference .y4m or raw .yuv (- for stdin)");
    app.add_option("-d,--distorted", s.dis, "distorted .y4m or raw .yuv");
    app.add_option("-w,--width", s.width, "raw YUV width");
    app.add_option("-h,--height", s.height, "raw YUV height");
    app.add_option("-p,--pixel_format", s.pixel_format, "raw YUV pixel format (420/422/444)");
    app.add_option("-b,--bitdepth", s.bitdepth, "raw YUV bit depth (8/10/12/16)");
    app.add_option("-m,--model", s.models,
                   "model, colon-delimited: version=NAME | path=FILE, name=, disable_clip, "
                   "enable_transform, <feature>.<option>=value (repeatable)");
    app.add_option("-o,--output", s.output, "output file (- for stdout)");
    app.add_flag_callback("--xml", [&] { s.format = vmafpp::OutputFormat::xml; }, "XML output (default)");
    app.add_flag_callback("--json", [&] { s.format = vmafpp::OutputFormat::json; }, "JSON output");
    app.add_flag_callback("--csv", [&] { s.format = vmafpp::OutputFormat::csv; }, "CSV output");
    app.add_flag_callback("--sub", [&] { s.format = vmafpp::OutputFormat::sub; }, "subtitle output");
    app.add_option("--precision", s.precision,
                   "number format: legacy (as libvmaf, default), max (17 digits) or 1-17");
    app.add_option("--threads", s.threads, "worker threads (0: score on the reading thread)");
    app.add_option("--feature", s.features,
                   "extra feature extractor: name or name=option=value:option=value (repeatable)");
    app.add_option("--subsample", s.subsample, "score every Nth frame");
    app.add_option("-c,--cpumask", s.cpumask,
                   "disable instruction sets: 8 AVX2, 16 AVX-512, 32 AVX-512 ICL; 4294967295 = scalar");
    app.add_option("--gpumask", s.gpumask,
                   "as libvmaf: any set bit keeps every extractor off the GPU (CPU scoring)");
    app.add_option("--backend", s.backend, "where to compute: " + built_backend_names());
    app.add_option("--device", s.device, "device index of a device backend (0 = the first)");
    app.add_option_function<std::string>("--aom_ctc", [&](const std::string& v) { apply_ctc(s, "aom", v); },
                                         "AOM CTC preset (models of v1.0 .. v7.0)");
    app.add_option_function<std::string>("--nflx_ctc", [&](const std::string& v) { apply_ctc(s, "nflx", v); },
                                         "Netflix CTC preset (v1.0 models)");
    app.add_option("--frame_cnt", s.frame_cnt, "score at most N frames");
    app.add_option("--frame_skip_ref", s.frame_skip_ref, "skip the first N reference frames");
    app.add_option("--frame_skip_dist", s.frame_skip_dist, "skip the first N distorted frames");
    app.add_flag("-n,--no_prediction", s.no_prediction, "features only, no model score");
    app.add_flag("-q,--quiet", s.quiet, "no progress meter");
    bool show_version = false;
    bool list_devices = false;
    app.add_flag("--list-devices", list_devices, "list the devices of --backend (their --device index), then exit");
    app.add_flag("-v,--version", show_version, "print the version and SIMD level, then exit");

    try {
        app.parse(argc, argv);
    } catch (const CLI::CallForHelp&) {
        std::cout << app.help();
        return 0;
    } catch (const CLI::ParseError& e) {
        std::string msg = e.what();
        std::fprintf(stderr, "vmafpp: %s (see --help)\n", msg.c_str());
        return 1;
    } catch (const vmafpp::Error& e) {
        std::fprintf(stderr, "vmafpp: %s\n", e.what());
        return 1;
    }
    if (list_devices) {
        try {
            std::fputs(vmafpp::describe_devices(vmafpp::parse_backend(s.backend)).c_str(), stdout);
            return 0;
        } catch (const vmafpp::Error& e) {
            std::fprintf(stderr, "vmafpp: %s\n", e.what());
            return 1;
        }
    }
    if (show_version) {
        // --cpumask (and VMAFPP_CPUMASK) change the level: name the one a run
        // with the same options would use.
        std::printf("vmafpp %s (SIMD: %s) (backends: %s)\n", vmafpp::version().c_str(),
                    vmafpp::simd_level_name(vmafpp::simd_level(s.cpumask)),
                    built_backend_names().c_str());
        return 0;
    }
    if (s.ref.empty() || s.dis.empty()) {
        std::fprintf(stderr, "vmafpp: both --reference/-r and --distorted/-d are required (see --help)\n");
        return 1;
    }
    try {
        return run(s);
    } catch (const vmafpp::Error& e) {
        // After a progress line the message must start on a line of its own.
        const bool progress_shown = isatty(STDERR_FILENO) && !s.quiet;
        std::fprintf(stderr, "%svmafpp: %s\n", progress_shown ? "\n" : "", e.what());
        return 1;
    } catch (const std::bad_alloc&) {
        std::fprintf(stderr, "vmafpp: out of memory\n");
        return 1;
    } catch (const std::exception& e) {
        std::fprintf(stderr, "vmafpp: internal error: %s\n", e.what());
        return 2;
    }
}
