package history

import (
	"archive/zip"
	"errors"
	"io"
	"slices"
	"strings"
)

// ZipProblem words what is wrong with a zip archive (a CI artifact of
// reports) that archive/zip refused, for the surfaces that unpack one.
func ZipProblem(err error) string {
	switch {
	case errors.Is(err, zip.ErrFormat):
		return "not a zip archive flakegate can read: it has no zip directory at its end (a download cut short, or another kind of file)"
	case errors.Is(err, zip.ErrAlgorithm):
		return "a file in the zip archive is compressed by a method flakegate does not read (it reads stored and deflated files)"
	case errors.Is(err, zip.ErrChecksum):
		return "the zip archive is damaged: a file's checksum does not match its content"
	case errors.Is(err, io.ErrUnexpectedEOF):
		return "the zip archive ends in the middle of a file"
	}
	return "the zip archive cannot be read"
}

// IsZipError reports whether err is archive/zip's: a damaged archive, or a
// file in it that cannot be unpacked.
func IsZipError(err error) bool {
	return errors.Is(err, zip.ErrFormat) || errors.Is(err, zip.ErrAlgorithm) || errors.Is(err, zip.ErrChecksum)
}

// ReportEntries are the files of a zip archive read as runs, in the order
// of their names: report files only (IsReportName), so that folders,
// hidden files and anything else in a CI artifact (a README, a log) are
// skipped the same way on every surface.
func ReportEntries(z *zip.Reader) []*zip.File {
	var out []*zip.File
	for _, f := range z.File {
		if !f.FileInfo().IsDir() && IsReportName(f.Name) {
			out = append(out, f)
		}
	}
	slices.SortFunc(out, func(a, b *zip.File) int { return strings.Compare(a.Name, b.Name) })
	return out
}
