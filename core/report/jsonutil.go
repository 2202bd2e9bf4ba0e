package report

import "strings"

func cmpOr(s, alt string) string {
	if s == "" {
		return alt
	}
	return s
}

// firstLine is the first non-blank line of s, clipped to 120 bytes.
func firstLine(s string) string {
	for _, line := range strings.Split(s, "\n") {
		if line = strings.TrimSpace(line); line != "" {
			return clipText(line, 120)
		}
	}
	return ""
}

// joinNonEmpty joins the non-empty parts with sep.
func joinNonEmpty(parts []string, sep string) string {
	var keep []string
	for _, p := range parts {
		if p = strings.TrimSpace(p); p != "" {
			keep = append(keep, p)
		}
	}
	return strings.Join(keep, sep)
}
