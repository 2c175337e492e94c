#!/usr/bin/env python3
"""cut-run.py SRC.h5 DST.h5 -- a few rows of a GPU run as a file of the current
schema (10), for the results fuzzer's seeds (make-corpus.sh).

The shipped GPU runs (data/, schemas 8 and 10) are too large to mutate quickly;
this keeps, at the smallest M of SRC, the first row of each rung, disposition
and pairing, with every sample of each, and every root attribute with its type.
It writes them as mmladder's writer writes schema 10 (results.c;
data/README.md): the same column types (fixed-length NUL-terminated strings,
32-bit integers, doubles) with `crc32` and `point` last (added where SRC is of
an older schema), chunked and uncompressed tables, each row's `point` its place
among the rows kept, and each row's `crc32` and the attribute `attrs_crc32`
computed as data/README.md spells them out.  `planned_points` becomes the rows
kept and the file says it is complete: `mmladder info DST` reads it as sound and
checksummed (make-corpus.sh checks that)."""
import struct
import sys
import zlib

import h5py
import numpy as np


def pick(rows):
    """Indices of the rows kept: at the smallest M, the first of each rung,
    disposition and pairing."""
    small = rows['M'].min()
    seen, keep = set(), []
    for i, r in enumerate(rows):
        key = (r['variant'], r['disposition'], r['paired_with'] != b'')
        if r['M'] == small and key not in seen:
            seen.add(key)
            keep.append(i)
    return keep


def field_bytes(value, kind):
    """A column's bytes as the checksum takes them (trust.h: trust_row_crc)."""
    if kind.kind == 'S':
        return bytes(value).split(b'\0')[0]
    if kind == np.dtype('<i4'):
        return struct.pack('<i', int(value))
    return struct.pack('<d', float(value))


def crc_record(crc, record, dtype, skip=None):
    for name in dtype.names:
        if name != skip:
            crc = zlib.crc32(field_bytes(record[name], dtype[name]), crc)
    return crc


def with_last(tid, names):
    """The compound type tid with a 32-bit integer column after its members for
    each of names it lacks, in order."""
    have = [tid.get_member_name(k) for k in range(tid.get_nmembers())]
    more = [n for n in names if n not in have]
    out = h5py.h5t.create(h5py.h5t.COMPOUND, tid.get_size() + 4 * len(more))
    for k in range(tid.get_nmembers()):
        out.insert(tid.get_member_name(k), tid.get_member_offset(k), tid.get_member_type(k))
    for i, n in enumerate(more):
        out.insert(n, tid.get_size() + 4 * i, h5py.h5t.STD_I32LE)
    return out


def write_table(dst, name, tid, data, chunk):
    space = h5py.h5s.create_simple((len(data),), (h5py.h5s.UNLIMITED,))
    dcpl = h5py.h5p.create(h5py.h5p.DATASET_CREATE)
    dcpl.set_chunk((chunk,))
    ds = h5py.h5d.create(dst.id, name, tid, space, dcpl=dcpl)
    ds.write(h5py.h5s.ALL, h5py.h5s.ALL, np.ascontiguousarray(data))


def attr_text(value):
    """An attribute's value as the readers show it (results_visit_attrs)."""
    if isinstance(value, (bytes, np.bytes_)):
        return bytes(value)
    if isinstance(value, str):
        return value.encode()
    if isinstance(value, (float, np.floating)):
        return ('%.17g' % value).encode()
    return str(int(value)).encode()


def main(src_path, dst_path):
    with h5py.File(src_path, 'r') as src, \
         h5py.File(dst_path, 'w', libver=('v110', 'v110')) as dst:
        rows_in = src['results'][:]
        samples_in = src['samples'][:]
        keep = pick(rows_in)
        rtype = with_last(src['results'].id.get_type(), [b'crc32', b'point'])
        rows = np.zeros(len(keep), dtype=rtype.dtype)
        samples = []
        for new, old in enumerate(keep):
            for name in rows_in.dtype.names:
                rows[new][name] = rows_in[old][name]
            mine = samples_in[samples_in['row'] == old].copy()
            mine['row'] = new
            samples.append(mine)
            rows[new]['crc32'] = 0
            rows[new]['point'] = new
        samples = np.concatenate(samples)
        for new in range(len(keep)):
            crc = crc_record(0, rows[new], rows.dtype, skip='crc32')
            for s in samples[samples['row'] == new]:
                crc = crc_record(crc, s, samples.dtype)
            rows[new]['crc32'] = np.uint32(crc).view(np.int32)
        write_table(dst, b'results', rtype, rows, 64)
        write_table(dst, b'samples', src['samples'].id.get_type(), samples, 1024)
        values = {}
        for name in src.attrs:
            values[name] = (src.attrs[name], src.attrs.get_id(name).dtype)
        values['schema_version'] = (np.int64(10), np.dtype('<i8'))
        values['planned_points'] = (np.int64(len(keep)), np.dtype('<i8'))
        values['complete'] = (np.int64(1), np.dtype('<i8'))
        crc = 0
        for name in sorted(values, key=lambda n: n.encode()):
            if name != 'attrs_crc32':
                crc = zlib.crc32(name.encode() + b'\0' + attr_text(values[name][0]) + b'\0', crc)
        values['attrs_crc32'] = (np.int64(crc), np.dtype('<i8'))
        for name, (value, dtype) in values.items():
            dst.attrs.create(name, value, dtype=dtype)
    print('%s: %d of %d rows, %d samples' % (dst_path, len(keep), len(rows_in), len(samples)))


if __name__ == '__main__':
    if len(sys.argv) != 3:
        sys.exit('usage: cut-run.py SRC.h5 DST.h5')
    main(sys.argv[1], sys.argv[2])
