// Deflate blocks of literals only, coded with a Huffman code built for the block (RFC 1951 §3.2.7).
//
// Filtered photo data is close to noise: LZ77 finds few matches in it, and zlib's match search costs most of its
// time while gaining nothing (at level 1 it even loses, because its literal blocks are coded with smaller tables).
// Coding the bytes alone, with one table per block, is what zlib's Z_HUFFMAN_ONLY strategy does, only without
// its per-symbol bookkeeping. Internal to CPNG.
#ifndef CPNG_HUFFMAN_BLOCK_H
#define CPNG_HUFFMAN_BLOCK_H

#include <stddef.h>
#include <stdint.h>

/// The code of one block: built from the data's byte counts, with its exact size.
typedef struct cpng_huffman_plan {
    uint32_t literal_codes[257];   ///< bit-reversed code in the low 16 bits, length above (256 is end-of-block)
    uint8_t lengths[257 + 2];      ///< the literal/length lengths, then the two distance lengths
    uint8_t length_code_lengths[19];
    uint16_t length_codes[19];     ///< bit-reversed codes of the code-length alphabet (§3.2.7)
    int length_code_count;         ///< HCLEN + 4
    uint64_t bits;                 ///< the block's size in bits, header and end-of-block included
} cpng_huffman_plan;

/// Counts the bytes of `data` and builds the block's code (at most 15 bits a code, §3.2.7).
void cpng_huffman_plan_make(const uint8_t *data, size_t length, cpng_huffman_plan *plan);

/// The bytes `cpng_huffman_block_write` needs for this plan: the block, the byte alignment, and 8 bytes of slack
/// for the writer's 64-bit stores.
size_t cpng_huffman_block_capacity(const cpng_huffman_plan *plan);

/// Writes `data` as one dynamic-Huffman block of literals. When `final` is set the block is the stream's last
/// (BFINAL) and its bits are padded with zeros to a byte; otherwise an empty stored block follows, which ends the
/// output on a byte boundary so that independently written streams can be concatenated (the bytes zlib's
/// Z_SYNC_FLUSH writes, §3.2.4). Returns the bytes written.
size_t cpng_huffman_block_write(const cpng_huffman_plan *plan, const uint8_t *data, size_t length, int final,
                                uint8_t *out);

#endif
