// The interface a compute shader's SPIR-V declares, read from the module
// itself, so that the C++ side of a pipeline (its binding count and the
// push-constant struct it pushes) cannot drift from the shader: a shader
// that gains a buffer, or a *_shared.h struct whose C++ size differs from
// its std430 size, fails the first time its pipeline is asked for.
//
// SPIR-V: a 5-word header, then instructions whose first word is
// (word count << 16) | opcode.
#include <algorithm>
#include <map>
#include <set>
#include <string>
#include <vector>

#include "vmafpp/error.hpp"
#include "vulkan/vk_context.hpp"

namespace vmafpp::vk {

namespace {

enum Op : std::uint32_t {
    kOpTypeInt = 21,
    kOpTypeFloat = 22,
    kOpTypeVector = 23,
    kOpTypeArray = 28,
    kOpTypeStruct = 30,
    kOpTypePointer = 32,
    kOpConstant = 43,
    kOpVariable = 59,
    kOpDecorate = 71,
    kOpMemberDecorate = 72,
};
constexpr std::uint32_t kDecorationArrayStride = 6, kDecorationBinding = 33,
                        kDecorationOffset = 35;
constexpr std::uint32_t kStoragePushConstant = 9;

// The instructions the size of a type needs, by result id.
struct Module {
    std::map<std::uint32_t, std::vector<std::uint32_t>> types;  // id -> the whole instruction
    std::map<std::uint32_t, std::uint32_t> constants;           // id -> low word
    std::map<std::uint32_t, std::uint32_t> array_stride;
    std::map<std::pair<std::uint32_t, std::uint32_t>, std::uint32_t> member_offset;
    std::set<std::uint32_t> bound;                      // variables with a Binding
    std::vector<std::uint32_t> push_pointer_types;      // of PushConstant variables
};

[[noreturn]] void malformed(const EmbeddedShader& s) {
    throw Error(std::string("internal error: vulkan: embedded shader ") + s.name +
                " is not well-formed SPIR-V");
}

Module read_module(const EmbeddedShader& s) {
    if (s.count < 5 || s.words[0] != 0x07230203u) malformed(s);
    Module m;
    for (std::size_t i = 5; i < s.count;) {
        const std::uint32_t op = s.words[i] & 0xffffu, n = s.words[i] >> 16;
        if (n == 0 || i + n > s.count) malformed(s);
        const std::uint32_t* w = s.words + i;
        switch (op) {
            case kOpTypeInt:
            case kOpTypeFloat:
            case kOpTypeVector:
            case kOpTypeArray:
            case kOpTypeStruct:
            case kOpTypePointer:
                m.types[w[1]].assign(w, w + n);
                break;
            case kOpConstant:
                if (n >= 4) m.constants[w[2]] = w[3];
                break;
            case kOpVariable:
                if (n >= 4 && w[3] == kStoragePushConstant) m.push_pointer_types.push_back(w[1]);
                break;
            case kOpDecorate:
                if (n >= 3 && w[2] == kDecorationBinding) m.bound.insert(w[1]);
                if (n >= 4 && w[2] == kDecorationArrayStride) m.array_stride[w[1]] = w[3];
                break;
            case kOpMemberDecorate:
                if (n >= 5 && w[3] == kDecorationOffset) m.member_offset[{w[1], w[2]}] = w[4];
                break;
            default:
                break;
        }
        i += n;
    }
    return m;
}

// The bytes a value of type `id` covers in an explicitly laid out block:
// a struct up to the end of its last member (a C++ struct of 32- and 64-bit
// members without padding has the same size).
std::uint32_t size_of(const Module& m, std::uint32_t id, const EmbeddedShader& s, int depth = 0) {
    const auto it = m.types.find(id);
    if (it == m.types.end() || depth > 8) malformed(s);
    const std::vector<std::uint32_t>& t = it->second;
    switch (t[0] & 0xffffu) {
        case kOpTypeInt:
        case kOpTypeFloat:
            return t[2] / 8;
        case kOpTypeVector:
            return t[3] * size_of(m, t[2], s, depth + 1);
        case kOpTypeArray: {
            const auto len = m.constants.find(t[3]);
            if (len == m.constants.end()) malformed(s);
            const auto stride = m.array_stride.find(id);
            const std::uint32_t each =
                stride != m.array_stride.end() ? stride->second : size_of(m, t[2], s, depth + 1);
            return len->second * each;
        }
        case kOpTypeStruct: {
            std::uint32_t end = 0;
            for (std::uint32_t k = 0; k + 2 < t.size(); ++k) {
                const auto off = m.member_offset.find({id, k});
                if (off == m.member_offset.end()) malformed(s);
                end = std::max(end, off->second + size_of(m, t[k + 2], s, depth + 1));
            }
            return end;
        }
        default:
            malformed(s);
    }
}

}  // namespace

ShaderInterface shader_interface(const EmbeddedShader& shader) {
    const Module m = read_module(shader);
    ShaderInterface out;
    out.bindings = static_cast<int>(m.bound.size());
    if (m.push_pointer_types.size() > 1) malformed(shader);
    for (std::uint32_t pointer : m.push_pointer_types) {
        const auto p = m.types.find(pointer);
        if (p == m.types.end() || p->second.size() < 4) malformed(shader);
        out.push_bytes = size_of(m, p->second[3], shader);
    }
    return out;
}

void check_interface(const std::string& name, int bindings, std::uint32_t push_bytes) {
    const EmbeddedShader* shader = nullptr;
    for (const EmbeddedShader& s : embedded_spirv())
        if (name == s.name) shader = &s;
    if (!shader) throw Error("vulkan: no embedded shader \"" + name + "\"");
    const ShaderInterface got = shader_interface(*shader);
    if (got.bindings != bindings || got.push_bytes != push_bytes)
        throw Error("internal error: vulkan: " + name + " declares " +
                    std::to_string(got.bindings) + " bindings and " +
                    std::to_string(got.push_bytes) + " bytes of push constants; its pipeline has " +
                    std::to_string(bindings) + " and " + std::to_string(push_bytes));
}

}  // namespace vmafpp::vk
