//! Memory formats (`torch.memory_format`).

/// How a tensor's dims are ordered in memory (`torch.memory_format`).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum MemoryFormat {
    /// Row-major, `torch.contiguous_format` (NCHW for 4-d).
    Contiguous,
    /// NHWC for 4-d tensors, `torch.channels_last`.
    ChannelsLast,
    /// NDHWC for 5-d tensors, `torch.channels_last_3d`.
    ChannelsLast3d,
    /// Keep the input's layout when dense, else follow its strides
    /// (`torch.preserve_format`).
    Preserve,
}
