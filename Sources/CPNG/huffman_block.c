// Literal-only dynamic-Huffman deflate blocks (RFC 1951 §3.2.7); see huffman_block.h.
#include "huffman_block.h"

#include <string.h>

// The order in which the code-length alphabet's lengths are sent (RFC 1951 §3.2.7).
static const uint8_t length_order[19] = {16, 17, 18, 0, 8, 7, 9, 6, 10, 5, 11, 4, 12, 3, 13, 2, 14, 1, 15};

// Huffman code lengths of at most `limit` bits for `count` symbols (count <= 257). Symbols of frequency 0 get
// length 0. A lone used symbol gets a partner of length 1, so the code is always complete (zlib's inflate refuses
// an incomplete literal code). When the optimal code is too deep, the frequencies are halved (keeping every used
// symbol at 1 or more) and the code rebuilt: this flattens the tree until it fits, which takes a few rounds only
// for extremely skewed data. Ties are broken by symbol, so the lengths depend on the counts alone.
static void build_lengths(const uint64_t *frequencies, int count, int limit, uint8_t *lengths) {
    int symbols[257];
    uint64_t weight[2 * 257];
    int parent[2 * 257];
    uint8_t depth[2 * 257];
    uint64_t scaled[257];
    int used = 0;
    memset(lengths, 0, (size_t)count);
    for (int s = 0; s < count; s++) {
        scaled[s] = frequencies[s];
        if (frequencies[s] != 0) used++;
    }
    if (used == 0) return;
    if (used == 1) {
        for (int s = 0; s < count; s++) {
            if (frequencies[s] != 0) {
                lengths[s] = 1;
                lengths[s == 0 ? 1 : 0] = 1;
            }
        }
        return;
    }
    for (;;) {
        // Leaves sorted by (frequency, symbol): insertion sort, at most 257 entries.
        int m = 0;
        for (int s = 0; s < count; s++) {
            if (scaled[s] == 0) continue;
            int at = m++;
            while (at > 0 && scaled[symbols[at - 1]] > scaled[s]) {
                symbols[at] = symbols[at - 1];
                at--;
            }
            symbols[at] = s;
        }
        if (m < 2) return;  // unreachable: `used` is at least 2 and scaling keeps every used symbol
        for (int i = 0; i < m; i++) weight[i] = scaled[symbols[i]];
        // Two queues: the sorted leaves, and the internal nodes, which are made in increasing weight.
        int leaf = 0, inner = m, next = m;
        while (next < 2 * m - 1) {
            int pick[2];
            for (int k = 0; k < 2; k++) {
                if (leaf < m && (inner >= next || weight[leaf] <= weight[inner])) {
                    pick[k] = leaf++;
                } else {
                    pick[k] = inner++;
                }
            }
            weight[next] = weight[pick[0]] + weight[pick[1]];
            parent[pick[0]] = next;
            parent[pick[1]] = next;
            next++;
        }
        int root = 2 * m - 2;
        depth[root] = 0;
        int deepest = 0;
        for (int i = root - 1; i >= 0; i--) {
            depth[i] = (uint8_t)(depth[parent[i]] + 1);
            if (i < m && depth[i] > deepest) deepest = depth[i];
        }
        if (deepest <= limit) {
            for (int i = 0; i < m; i++) lengths[symbols[i]] = depth[i];
            return;
        }
        for (int s = 0; s < count; s++) {
            if (scaled[s] != 0) scaled[s] = (scaled[s] >> 1) | 1;
        }
    }
}

static uint32_t reverse_bits(uint32_t code, int length) {
    uint32_t reversed = 0;
    for (int i = 0; i < length; i++) {
        reversed = (reversed << 1) | (code & 1);
        code >>= 1;
    }
    return reversed;
}

// Canonical codes from lengths (RFC 1951 §3.2.2), bit-reversed because deflate sends codes from their most
// significant bit while the bit stream fills bytes from the least significant one.
static void canonical_codes(const uint8_t *lengths, int count, uint32_t *codes) {
    uint32_t length_count[16] = {0};
    uint32_t next_code[16] = {0};
    for (int s = 0; s < count; s++) length_count[lengths[s]]++;
    length_count[0] = 0;
    uint32_t code = 0;
    for (int bits = 1; bits < 16; bits++) {
        code = (code + length_count[bits - 1]) << 1;
        next_code[bits] = code;
    }
    for (int s = 0; s < count; s++) {
        int length = lengths[s];
        codes[s] = length == 0 ? 0 : reverse_bits(next_code[length]++, length);
    }
}

void cpng_huffman_plan_make(const uint8_t *data, size_t length, cpng_huffman_plan *plan) {
    // Four partial histograms, so that runs of one byte value do not wait on the same counter.
    uint32_t partial[4][256];
    memset(partial, 0, sizeof partial);
    size_t i = 0;
    for (; i + 4 <= length; i += 4) {
        partial[0][data[i]]++;
        partial[1][data[i + 1]]++;
        partial[2][data[i + 2]]++;
        partial[3][data[i + 3]]++;
    }
    for (; i < length; i++) partial[0][data[i]]++;
    uint64_t frequencies[257];
    for (int s = 0; s < 256; s++) {
        frequencies[s] = (uint64_t)partial[0][s] + partial[1][s] + partial[2][s] + partial[3][s];
    }
    frequencies[256] = 1;  // end-of-block

    memset(plan, 0, sizeof *plan);
    build_lengths(frequencies, 257, 15, plan->lengths);
    uint32_t codes[257];
    canonical_codes(plan->lengths, 257, codes);
    for (int s = 0; s < 257; s++) plan->literal_codes[s] = codes[s] | ((uint32_t)plan->lengths[s] << 16);
    // No distances are used; two distance codes of one bit make a complete code that any inflater accepts.
    plan->lengths[257] = 1;
    plan->lengths[258] = 1;

    // The 259 lengths are sent as they are (symbols 0-15), coded with a code of at most 7 bits (§3.2.7); the
    // run-length symbols 16-18 would save a few dozen bytes a block, nothing next to the data.
    uint64_t length_frequencies[19] = {0};
    for (int s = 0; s < 259; s++) length_frequencies[plan->lengths[s]]++;
    build_lengths(length_frequencies, 19, 7, plan->length_code_lengths);
    uint32_t length_codes[19];
    canonical_codes(plan->length_code_lengths, 19, length_codes);
    for (int s = 0; s < 19; s++) plan->length_codes[s] = (uint16_t)length_codes[s];
    int sent = 19;
    while (sent > 4 && plan->length_code_lengths[length_order[sent - 1]] == 0) sent--;
    plan->length_code_count = sent;

    uint64_t bits = 3 + 5 + 5 + 4 + 3 * (uint64_t)sent;
    for (int s = 0; s < 259; s++) bits += plan->length_code_lengths[plan->lengths[s]];
    for (int s = 0; s < 257; s++) bits += frequencies[s] * plan->lengths[s];
    plan->bits = bits;
}

size_t cpng_huffman_block_capacity(const cpng_huffman_plan *plan) {
    // Block bits, up to 7 bits of padding, an empty stored block of 3 + 7 + 32 bits, and the slack.
    return (size_t)((plan->bits + 7) / 8) + 1 + 5 + 8;
}

typedef struct bit_writer {
    uint8_t *out;
    uint64_t buffer;
    unsigned count;  // bits in the buffer; below 8 after each flush
} bit_writer;

// Stores the whole 64-bit buffer (the bytes past the complete ones are rewritten by the next flush) and keeps the
// incomplete byte's bits.
static inline void flush(bit_writer *w) {
#if defined(__BYTE_ORDER__) && __BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__
    memcpy(w->out, &w->buffer, 8);
#else
    for (int k = 0; k < 8; k++) w->out[k] = (uint8_t)(w->buffer >> (8 * k));
#endif
    unsigned whole = w->count & ~7u;
    w->out += whole >> 3;
    w->buffer = whole == 64 ? 0 : w->buffer >> whole;
    w->count &= 7;
}

// Appends `count` bits (at most 32) of `value`, lowest first.
static inline void put(bit_writer *w, uint64_t value, unsigned count) {
    w->buffer |= value << w->count;
    w->count += count;
    if (w->count >= 32) flush(w);
}

size_t cpng_huffman_block_write(const cpng_huffman_plan *plan, const uint8_t *data, size_t length, int final,
                                uint8_t *out) {
    bit_writer w = {out, 0, 0};
    put(&w, final ? 1 : 0, 1);  // BFINAL
    put(&w, 2, 2);              // BTYPE 10: dynamic Huffman codes
    put(&w, 257 - 257, 5);      // HLIT: literals 0-255 and end-of-block
    put(&w, 2 - 1, 5);          // HDIST: two distance codes
    put(&w, (uint64_t)(plan->length_code_count - 4), 4);
    for (int k = 0; k < plan->length_code_count; k++) put(&w, plan->length_code_lengths[length_order[k]], 3);
    for (int s = 0; s < 259; s++) {
        int value = plan->lengths[s];
        put(&w, plan->length_codes[value], plan->length_code_lengths[value]);
    }

    // The data: after a flush fewer than 8 bits wait, so three codes of up to 15 bits fit before the next.
    flush(&w);
    const uint32_t *table = plan->literal_codes;
    size_t i = 0;
    for (; i + 3 <= length; i += 3) {
        uint32_t a = table[data[i]], b = table[data[i + 1]], c = table[data[i + 2]];
        w.buffer |= (uint64_t)(a & 0xFFFF) << w.count;
        w.count += a >> 16;
        w.buffer |= (uint64_t)(b & 0xFFFF) << w.count;
        w.count += b >> 16;
        w.buffer |= (uint64_t)(c & 0xFFFF) << w.count;
        w.count += c >> 16;
        flush(&w);
    }
    for (; i < length; i++) {
        uint32_t a = table[data[i]];
        put(&w, a & 0xFFFF, a >> 16);
    }
    uint32_t end = table[256];
    put(&w, end & 0xFFFF, end >> 16);

    if (!final) {
        // An empty stored block: header bits, padding to the byte, LEN 0 and NLEN 0xFFFF (§3.2.4).
        put(&w, 0, 3);
        if (w.count & 7) put(&w, 0, 8 - (w.count & 7));
        put(&w, 0xFFFF0000u, 32);
    }
    if (w.count & 7) put(&w, 0, 8 - (w.count & 7));
    flush(&w);
    return (size_t)(w.out - out);
}
