// vmafpp: a drop-in for libvmaf's `vmaf` command line tool.
#include <unistd.h>

#include <chrono>
#include <cmath>
#include <cstdint>
#include <cerrno>
#include <cstdio>
#include <cstring>
#include <algorithm>
#include <functional>
#include <iostream>
#include <optional>
#include <string>
#include <vector>

#include <CLI/CLI.hpp>

#include "vmafpp/chunk.hpp"
#include "vmafpp/cpu.hpp"
#include "vmafpp/feature.hpp"
#include "vmafpp/model.hpp"
#include "vmafpp/output.hpp"
#include "vmafpp/presets.hpp"
#include "vmafpp/vmafpp.hpp"
#include "output_file.hpp"

namespace {

// --cpumask's bits are libvmaf's for the architecture that runs (cpu.hpp).
#if defined(__aarch64__)
constexpr const char* kCpumaskHelp = "disable instruction sets: 1 NEON; 4294967295 = scalar";
#else
constexpr const char* kCpumaskHelp =
    "disable instruction sets: 8 AVX2, 16 AVX-512, 32 AVX-512 ICL; 4294967295 = scalar";
#endif

struct Settings {
    std::string ref, dis, output;
    unsigned width = 0, height = 0, bitdepth = 0;
    std::string pixel_format;
    std::vector<std::string> models, features;
    vmafpp::OutputFormat format = vmafpp::OutputFormat::xml;
    std::string precision = "legacy";
    unsigned threads = 0, subsample = 1, cpumask = 0, gpumask = 0, device = 0;
    bool device_only = false;
    std::string backend = "cpu";
    unsigned frame_cnt = 0, frame_skip_ref = 0, frame_skip_dist = 0;
    bool no_prediction = false, quiet = false;
    bool output_given = false;  // -o '' is an error, not "no output"
    std::string scale, scaler = "bicubic";
    unsigned find_offset = 0;
    std::string frame_range, chunk_out;  // chunked scoring (see chunk_config)
    bool count_frames = false;
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

// --aom_ctc / --nflx_ctc: libvmaf's presets (vmafpp/presets.hpp). Their
// models and features come before those of -m and --feature.
void apply_ctc(Settings& s, const std::string& family, const std::string& version) {
    const vmafpp::Preset p = vmafpp::ctc_preset(family, version);
    s.models.insert(s.models.begin(), p.models.begin(), p.models.end());
    s.features.insert(s.features.begin(), p.features.begin(), p.features.end());
}

// One line on a terminal's stderr: frames done (of the total when known),
// speed, elapsed time and ETA, redrawn a few times a second.
class Progress {
public:
    Progress(bool enabled, long long total)
        : enabled_(enabled), total_(total), t0_(std::chrono::steady_clock::now()) {}
    void operator()(unsigned frames) {
        if (!enabled_) return;
        const auto now = std::chrono::steady_clock::now();
        if (frames > 1 && now - last_ < std::chrono::milliseconds(250)) return;
        last_ = now;
        draw(frames, std::chrono::duration<double>(now - t0_).count());
    }
    void done(unsigned frames) {
        if (!enabled_) return;
        draw(frames, std::chrono::duration<double>(std::chrono::steady_clock::now() - t0_).count());
        std::fputc('\n', stderr);
    }

private:
    static std::string clock_text(double seconds) {
        const long s = long(seconds + 0.5);
        char buf[32];
        if (s >= 3600)
            std::snprintf(buf, sizeof buf, "%ld:%02ld:%02ld", s / 3600, s / 60 % 60, s % 60);
        else
            std::snprintf(buf, sizeof buf, "%ld:%02ld", s / 60, s % 60);
        return buf;
    }
    void draw(unsigned frames, double seconds) {
        const double fps = seconds > 0 ? frames / seconds : 0.0;
        std::string line = std::to_string(frames);
        if (total_ > 0) line += "/" + std::to_string(total_);
        line += frames == 1 ? " frame" : " frames";
        char buf[64];
        std::snprintf(buf, sizeof buf, "  %.2f fps", fps);
        line += buf;
        line += "  elapsed " + clock_text(seconds);
        if (total_ > 0 && fps > 0 && frames <= total_)
            line += "  ETA " + clock_text(double(total_ - frames) / fps);
        std::fprintf(stderr, "\r%s\033[K", line.c_str());
        std::fflush(stderr);
    }

    bool enabled_;
    long long total_;
    std::chrono::steady_clock::time_point t0_, last_{};
};

// Frames each side has left after its skip, when both files say; -1 otherwise.
long long frames_after(const vmafpp::VideoInfo& info, unsigned skip) {
    return info.frames < 0 ? -1 : std::max(0LL, info.frames - (long long)skip);
}

// The one-line notes before scoring: unequal lengths or frame rates.
// --scale ref | WxH; without it, unequal sizes are an error that names it.
void apply_scale(const Settings& s, std::unique_ptr<vmafpp::VideoReader>& ref,
                 std::unique_ptr<vmafpp::VideoReader>& dis) {
    const vmafpp::VideoInfo r = ref->info(), d = dis->info();
    if (s.scale.empty()) {
        if (r.width != d.width || r.height != d.height)
            throw vmafpp::Error("picture sizes differ: the reference is " + std::to_string(r.width) + "x" +
                                std::to_string(r.height) + ", the distorted video " +
                                std::to_string(d.width) + "x" + std::to_string(d.height) +
                                " (--scale ref scales the distorted video to the reference's size)");
        return;
    }
    if (s.scale == "ref") {
        dis = vmafpp::scale_video(std::move(dis), r.width, r.height, s.scaler, s.dis);
        return;
    }
    int w = 0, h = 0;
    char tail = 0;
    if (std::sscanf(s.scale.c_str(), "%dx%d%c", &w, &h, &tail) != 2 || w <= 0 || h <= 0)
        throw vmafpp::Error("--scale: \"" + s.scale + "\" is not ref or WIDTHxHEIGHT (e.g. 1920x1080)");
    ref = vmafpp::scale_video(std::move(ref), w, h, s.scaler, s.ref);
    dis = vmafpp::scale_video(std::move(dis), w, h, s.scaler, s.dis);
}

// Mean squared difference of two pictures' luma.
double luma_mse(const vmafpp::Picture& a, const vmafpp::Picture& b) {
    const vmafpp::Plane& pa = a.luma();
    const vmafpp::Plane& pb = b.luma();
    double sum = 0;
    for (int y = 0; y < pa.height(); ++y) {
        std::uint64_t row = 0;
        for (int x = 0; x < pa.width(); ++x) {
            const int d = a.bpc > 8 ? int(pa.row<std::uint16_t>(y)[x]) - int(pb.row<std::uint16_t>(y)[x])
                                    : int(pa.row<std::uint8_t>(y)[x]) - int(pb.row<std::uint8_t>(y)[x]);
            row += std::uint64_t(std::int64_t(d) * d);
        }
        sum += double(row);
    }
    return sum / (double(pa.width()) * pa.height());
}

// --find-offset K: for each offset o in -K..K, the mean luma PSNR of the
// first frames with distorted frame i + o against reference frame i; prints
// every offset and the best, which --frame_skip_dist o (o > 0) or
// --frame_skip_ref -o (o < 0) applies.
int report_offset(const Settings& s, vmafpp::VideoReader& ref, vmafpp::VideoReader& dis) {
    constexpr unsigned kMaxOffset = 250, kCompared = 10;
    if (s.find_offset > kMaxOffset)
        throw vmafpp::Error("--find-offset " + std::to_string(s.find_offset) + " is more than " +
                            std::to_string(kMaxOffset));
    const int k = int(s.find_offset);
    ref.set_luma_only(true);
    dis.set_luma_only(true);
    auto load = [&](vmafpp::VideoReader& r) {
        std::vector<vmafpp::Picture> v;
        for (unsigned i = 0; i < unsigned(k) + kCompared; ++i) {
            vmafpp::Picture p;
            if (!r.read(p)) break;
            v.push_back(std::move(p));
        }
        return v;
    };
    const std::vector<vmafpp::Picture> r = load(ref), d = load(dis);
    const double peak = double((1 << ref.info().bpc) - 1);
    int best = 0;
    double best_psnr = -1;
    std::string table;
    for (int o = -k; o <= k; ++o) {
        double total = 0;
        unsigned n = 0;
        for (unsigned i = 0; i < kCompared; ++i) {
            const std::size_t ri = i + std::size_t(std::max(0, -o)), di = i + std::size_t(std::max(0, o));
            if (ri >= r.size() || di >= d.size()) break;
            const double mse = luma_mse(r[ri], d[di]);
            total += mse > 0 ? std::min(100.0, 10 * std::log10(peak * peak / mse)) : 100.0;
            ++n;
        }
        if (n == 0) continue;
        const double psnr = total / n;
        char line[128];
        std::snprintf(line, sizeof line, "offset %+d: luma PSNR %.3f dB over %u frames\n", o, psnr, n);
        table += line;
        if (psnr > best_psnr + 1e-9) {
            best_psnr = psnr;
            best = o;
        }
    }
    if (best_psnr < 0) throw vmafpp::Error("--find-offset: an input has no frames");
    char line[192];
    const std::string flag = best > 0   ? " (score with --frame_skip_dist " + std::to_string(best) + ")"
                             : best < 0 ? " (score with --frame_skip_ref " + std::to_string(-best) + ")"
                                        : " (the inputs are aligned)";
    std::snprintf(line, sizeof line, "best offset: %+d, luma PSNR %.3f dB%s\n", best, best_psnr, flag.c_str());
    table += line;
    vmafpp::cli::write_all(STDOUT_FILENO, table, "standard output");
    return 0;
}

// Returns whether unequal lengths were reported (score() need not repeat it).
bool warn_mismatches(const Settings& s, const vmafpp::VideoInfo& r, const vmafpp::VideoInfo& d,
                     const std::function<void(const std::string&)>& warn) {
    const long long nr = frames_after(r, s.frame_skip_ref), nd = frames_after(d, s.frame_skip_dist);
    const bool lengths = nr > 0 && nd > 0 && nr != nd &&
                         !(s.frame_cnt && nr >= s.frame_cnt && nd >= s.frame_cnt);
    if (lengths)
        warn("the reference has " + std::to_string(nr) + " frames to score and the distorted video " +
             std::to_string(nd) + ": only the first " + std::to_string(std::min(nr, nd)) +
             " pairs are scored (--frame_skip_ref/--frame_skip_dist align them)");
    if (r.fps_num > 0 && d.fps_num > 0 &&
        (long long)r.fps_num * d.fps_den != (long long)d.fps_num * r.fps_den)
        warn("frame rates differ: reference " + std::to_string(r.fps_num) + "/" +
             std::to_string(r.fps_den) + ", distorted " + std::to_string(d.fps_num) + "/" +
             std::to_string(d.fps_den) + " fps (frames are paired by number)");
    return lengths;
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

// --frame_range A:B -> frames A..B-1.
vmafpp::FrameRange parse_frame_range(const std::string& text) {
    unsigned a = 0, b = 0;
    char tail = 0;
    if (std::sscanf(text.c_str(), "%u:%u%c", &a, &b, &tail) != 2 || text[0] == '-' ||
        text.find(":-") != std::string::npos)
        throw vmafpp::Error("--frame_range: \"" + text + "\" is not A:B (frames A..B-1, from 0)");
    if (a >= b)
        throw vmafpp::Error("--frame_range " + text + " is empty: A:B scores frames A..B-1, A < B");
    return {a, b};
}

// What every chunk of one run must share for `vmafpp merge` to accept them:
// each option that changes a value or the key order (--threads only by
// whether it is 0). Not where or how fast it runs (cpumask, backend).
std::string chunk_config(const Settings& s) {
    std::string c;
    for (const auto& m : s.models) c += "model=" + m + ";";
    for (const auto& f : s.features) c += "feature=" + f + ";";
    c += "no_prediction=" + std::to_string(s.no_prediction) + ";subsample=" +
         std::to_string(s.subsample) + ";threaded=" + std::to_string(s.threads > 0) +
         ";frame_skip=" + std::to_string(s.frame_skip_ref) + "," + std::to_string(s.frame_skip_dist) +
         ";raw=" + std::to_string(s.width) + "x" + std::to_string(s.height) + "," + s.pixel_format +
         "," + std::to_string(s.bitdepth) + ";scale=" + s.scale + "," + s.scaler;
    return c;
}

// --count-frames: the frames the pair has to score (after the skips).
int count_frames(const Settings& s, vmafpp::VideoReader& ref, vmafpp::VideoReader& dis) {
    auto count = [](vmafpp::VideoReader& r, unsigned skip) -> long long {
        if (r.info().frames >= 0) return std::max(0LL, r.info().frames - (long long)skip);
        r.set_luma_only(true);
        long long n = 0;
        n += r.skip(0xffffffffu);
        return std::max(0LL, n - (long long)skip);
    };
    const long long n = std::min(count(ref, s.frame_skip_ref), count(dis, s.frame_skip_dist));
    vmafpp::cli::write_all(STDOUT_FILENO, std::to_string(n) + "\n", "standard output");
    return 0;
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
    cfg.compute.device_only = s.device_only;
    cfg.threads = s.threads;
    cfg.subsample = s.subsample;
    cfg.frame_cnt = s.frame_cnt;
    cfg.frame_skip_ref = s.frame_skip_ref;
    cfg.frame_skip_dist = s.frame_skip_dist;
    if (!s.frame_range.empty()) {
        if (s.chunk_out.empty())
            throw vmafpp::Error("--frame_range writes a chunk: give --chunk_out FILE (vmafpp merge "
                                "joins the chunks)");
        cfg.frame_range = parse_frame_range(s.frame_range);
    }
    if (!s.chunk_out.empty() && s.output_given)
        throw vmafpp::Error("--chunk_out and -o cannot be combined (vmafpp merge CHUNK... -o OUT)");

    // One stream cannot feed both readers: each would take every other chunk.
    if (s.ref == "-" && s.dis == "-")
        throw vmafpp::Error("standard input (-) can feed only one of --reference and --distorted");
    // Checked before the first frame: a bad -o must not cost the scores.
    std::optional<vmafpp::cli::OutputFile> output;
    if (s.output_given) output.emplace(s.output, std::vector<std::string>{s.ref, s.dis});
    if (!s.chunk_out.empty()) output.emplace(s.chunk_out, std::vector<std::string>{s.ref, s.dis});
    if (s.format == vmafpp::OutputFormat::xml && output)
        for (const auto& m : cfg.models)
            if (!vmafpp::is_xml_name(m.name))
                throw vmafpp::Error("model name \"" + m.name +
                                    "\" cannot name an XML attribute (use letters, digits, '_', "
                                    "'-' and '.', starting with a letter or '_'), or write --json");

    auto ref = vmafpp::open_video(s.ref, raw);
    auto dis = vmafpp::open_video(s.dis, raw);
    apply_scale(s, ref, dis);
    if (s.find_offset) return report_offset(s, *ref, *dis);
    if (s.count_frames) return count_frames(s, *ref, *dis);

    const auto warn = [](const std::string& w) {
        std::fprintf(stderr, "vmafpp: warning: %s\n", w.c_str());
    };
    const bool lengths_told = warn_mismatches(s, ref->info(), dis->info(), warn);
    long long total = std::min(frames_after(ref->info(), s.frame_skip_ref),
                               frames_after(dis->info(), s.frame_skip_dist));
    if (s.frame_cnt && (total < 0 || total > s.frame_cnt)) total = s.frame_cnt;
    const bool show_progress = isatty(STDERR_FILENO) && !s.quiet;
    Progress progress(show_progress, total);
    cfg.on_frame = [&](unsigned n) { progress(n); };
    cfg.on_warning = [&](const std::string& w) {
        // The end of the shorter input, already told before scoring.
        if (lengths_told && w.find(" ended after ") != std::string::npos) return;
        if (show_progress) std::fputc('\n', stderr);
        warn(w);
    };
    vmafpp::ScoreRun run = vmafpp::score(*ref, *dis, cfg);
    progress.done(run.frames);
    if (!s.chunk_out.empty()) {
        output->commit(vmafpp::render_chunk(vmafpp::make_chunk(run, s.ref, s.dis, chunk_config(s))));
        return 0;
    }

    const vmafpp::Results results = run.results();
    if (output) output->commit(vmafpp::render_results(results, s.format, precision));
    // Scripts read the pooled scores from stdout unless the results go there.
    if (!output || !output->is_stdout()) {
        std::string summary;
        for (const auto& line : summary_lines(run, results)) summary += line + "\n";
        vmafpp::cli::write_all(STDOUT_FILENO, summary, "standard output");
    }
    return 0;
}

// vmafpp merge CHUNK... -o OUT [--xml|--json|--csv|--sub] [--precision P]:
// the output of a run over the whole pair (fps aside) from its chunks.
int merge_main(int argc, char** argv) {
    std::vector<std::string> inputs;
    std::string out, precision = "legacy";
    vmafpp::OutputFormat format = vmafpp::OutputFormat::xml;
    CLI::App app{"vmafpp merge: join the --chunk_out files of one pair into its output, byte for "
                 "byte that of a single run except fps", "vmafpp merge"};
    app.set_help_flag("--help", "print this help and exit");
    app.add_option("chunks", inputs, "chunk files (any order)")->required();
    app.add_option("-o,--output", out, "output file (- for stdout)")->required();
    app.add_flag_callback("--xml", [&] { format = vmafpp::OutputFormat::xml; }, "XML output (default)");
    app.add_flag_callback("--json", [&] { format = vmafpp::OutputFormat::json; }, "JSON output");
    app.add_flag_callback("--csv", [&] { format = vmafpp::OutputFormat::csv; }, "CSV output");
    app.add_flag_callback("--sub", [&] { format = vmafpp::OutputFormat::sub; }, "subtitle output");
    app.add_option("--precision", precision, "legacy (default), max or 1-17, as vmafpp's");
    try {
        app.parse(argc, argv);
    } catch (const CLI::CallForHelp&) {
        std::cout << app.help();
        return 0;
    } catch (const CLI::ParseError& e) {
        std::fprintf(stderr, "vmafpp merge: %s (see --help)\n", e.what());
        return 1;
    }
    try {
        const vmafpp::Precision p = vmafpp::parse_precision(precision);
        vmafpp::cli::OutputFile output(out, inputs);
        std::vector<vmafpp::Chunk> chunks;
        for (const auto& path : inputs) chunks.push_back(vmafpp::read_chunk_file(path));
        const vmafpp::Results r = vmafpp::merge_chunks(std::move(chunks));
        output.commit(vmafpp::render_results(r, format, p));
        return 0;
    } catch (const vmafpp::Error& e) {
        std::fprintf(stderr, "vmafpp: %s\n", e.what());
        return 1;
    } catch (const std::bad_alloc&) {
        std::fprintf(stderr, "vmafpp merge: out of memory\n");
        return 1;
    }
}

// What -r/-d read in this build: Y4M and raw YUV always; with FFmpeg (opened
// at run time) any file it decodes.
#if VMAFPP_CLI_FFMPEG
constexpr const char* kInputKinds =
    ".y4m, raw .yuv (with -w -h -p -b), or any file FFmpeg decodes (.mp4, .mkv, .webm, .ivf, ...)";
#else
constexpr const char* kInputKinds = ".y4m or raw .yuv (with -w -h -p -b); this build has no FFmpeg";
#endif

// --list-features / --list-models: one name a line, for scripts and the bash
// completion.
std::string feature_names() {
    std::string out;
    for (const auto& f : vmafpp::feature_registry()) out += f.name + "\n";
    return out;
}

std::string model_names() {
    std::string out;
    for (const auto& v : vmafpp::builtin_model_versions()) out += v + "\n";
    return out;
}

}  // namespace

int main(int argc, char** argv) {
    // `vmafpp merge ...` is a command of its own; every other use is libvmaf's.
    if (argc >= 2 && std::string(argv[1]) == "merge") return merge_main(argc - 1, argv + 1);
    Settings s;
    CLI::App app{"vmafpp " + vmafpp::version() +
                     ": VMAF video quality, drop-in compatible with libvmaf's vmaf tool",
                 "vmafpp"};
    app.set_help_flag("--help", "print this help and exit");
    app.option_defaults()->always_capture_default();
    app.add_option("-r,--reference", s.ref, std::string("reference video: ") + kInputKinds + "; - for stdin");
    app.add_option("-d,--distorted", s.dis, std::string("distorted video, as -r"));
    app.add_option("-w,--width", s.width, "raw YUV width");
    app.add_option("-h,--height", s.height, "raw YUV height");
    app.add_option("-p,--pixel_format", s.pixel_format, "raw YUV pixel format (420/422/444/400)");
    app.add_option("-b,--bitdepth", s.bitdepth, "raw YUV bit depth (8/10/12/16)");
    app.add_option("-m,--model", s.models,
                   "model, colon-delimited: version=NAME | path=FILE, name=, disable_clip, "
                   "enable_transform, <feature>.<option>=value (repeatable; --list-models names the built-in NAMEs)");
    app.add_option("-o,--output", s.output, "output file (- for stdout)")
        ->each([&](const std::string&) { s.output_given = true; });
    app.add_flag_callback("--xml", [&] { s.format = vmafpp::OutputFormat::xml; }, "XML output (default)");
    app.add_flag_callback("--json", [&] { s.format = vmafpp::OutputFormat::json; }, "JSON output");
    app.add_flag_callback("--csv", [&] { s.format = vmafpp::OutputFormat::csv; }, "CSV output");
    app.add_flag_callback("--sub", [&] { s.format = vmafpp::OutputFormat::sub; }, "subtitle output");
    app.add_option("--precision", s.precision,
                   "number format: legacy (as libvmaf, default), max (17 digits) or 1-17");
    app.add_option("--threads", s.threads, "worker threads (0: score on the reading thread)");
    app.add_option("--feature", s.features,
                   "extra feature extractor: name or name=option=value:option=value (repeatable; --list-features "
                   "names them)");
    app.add_option("--subsample", s.subsample, "score every Nth frame");
    app.add_option("-c,--cpumask", s.cpumask, kCpumaskHelp);
    app.add_option("--gpumask", s.gpumask,
                   "as libvmaf: any set bit keeps every extractor off the GPU (CPU scoring)");
    app.add_option("--backend", s.backend, "where to compute: " + built_backend_names());
    app.add_option("--device", s.device, "device index of a device backend (0 = the first)");
    app.add_flag("--device_only", s.device_only,
                 "refuse a feature that has no twin on --backend instead of running it on the CPU");
    app.add_option_function<std::string>("--aom_ctc", [&](const std::string& v) { apply_ctc(s, "aom_ctc", v); },
                                         "AOM CTC preset v1.0 .. v7.0: its models and features, as libvmaf");
    app.add_option_function<std::string>("--nflx_ctc", [&](const std::string& v) { apply_ctc(s, "nflx_ctc", v); },
                                         "Netflix CTC preset v1.0: its models and features, as libvmaf");
    app.add_option("--frame_cnt", s.frame_cnt, "score at most N frames");
    app.add_option("--frame_skip_ref", s.frame_skip_ref, "skip the first N reference frames");
    app.add_option("--frame_skip_dist", s.frame_skip_dist, "skip the first N distorted frames");
    app.add_option("--scale", s.scale,
                   "ref: scale the distorted video to the reference's size; WxH: scale both");
    app.add_option("--scaler", s.scaler,
                   "scaling filter: bicubic (default), bilinear, lanczos, spline, neighbor");
    app.add_option("--find-offset", s.find_offset,
                   "report the frame offset in -K..K that best aligns the inputs (luma PSNR), then exit");
    app.add_option("--frame_range", s.frame_range,
                   "A:B: score frames A..B-1 (from 0, after the skips) of the pair into --chunk_out, "
                   "reading the context frames motion needs so every value is the whole run's");
    app.add_option("--chunk_out", s.chunk_out,
                   "write the run (or --frame_range) as a lossless chunk for `vmafpp merge CHUNK... -o OUT`");
    app.add_flag("--count-frames", s.count_frames, "print the number of frame pairs to score, then exit");
    app.add_flag("-n,--no_prediction", s.no_prediction, "features only, no model score");
    app.add_flag("-q,--quiet", s.quiet, "no progress meter");
    bool show_version = false;
    bool list_devices = false;
    bool list_features = false, list_models = false;
    app.add_flag("--list-devices", list_devices, "list the devices of --backend (their --device index), then exit");
    app.add_flag("--list-features", list_features, "list the feature extractors --feature takes, then exit");
    app.add_flag("--list-models", list_models, "list the built-in models -m version= takes, then exit");
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
    if (list_features || list_models) {
        std::fputs(((list_features ? feature_names() : "") + (list_models ? model_names() : "")).c_str(),
                   stdout);
        return 0;
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
