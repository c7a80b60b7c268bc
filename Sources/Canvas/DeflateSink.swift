internal import CZlib

/// Collects zlib's output in fixed chunks, so the compressed size need not be guessed up front.
struct DeflateSink {
    private(set) var output: [UInt8] = []
    private(set) var isComplete = false
    private var chunk = [UInt8](repeating: 0, count: 1 << 16)

    /// Compresses `input` (the array is only read; zlib's `next_in` merely lacks `const`).
    mutating func feed(_ input: inout [UInt8], into stream: inout z_stream, flush: Int32) {
        input.withUnsafeMutableBufferPointer { input in
            stream.next_in = input.baseAddress
            stream.avail_in = uInt(input.count)
            chunk.withUnsafeMutableBufferPointer { chunk in
                while true {
                    stream.next_out = chunk.baseAddress
                    stream.avail_out = uInt(chunk.count)
                    let status = CZlib.deflate(&stream, flush)
                    let produced = chunk.count - Int(stream.avail_out)
                    output.append(contentsOf: chunk[0..<produced])
                    if status == Z_STREAM_END {
                        isComplete = true
                        return
                    }
                    // Done with this input once zlib had output space left over.
                    guard status == Z_OK || status == Z_BUF_ERROR, stream.avail_out == 0 else { return }
                }
            }
        }
    }
}
