package wire

// IndexFold is the index of the first instance of lower, ASCII and in
// lower case, in s with its ASCII letters in any case, or -1. It searches
// s itself: an index taken in strings.ToLower(s) is bytes off in s where a
// letter before it lower-cases to another length in UTF-8 (Ⱥ, the Kelvin
// sign), and slicing s with it cut the wrong place or panicked.
func IndexFold(s, lower string) int {
	for i := 0; i+len(lower) <= len(s); i++ {
		if hasPrefixFold(s[i:], lower) {
			return i
		}
	}
	return -1
}

// hasPrefixFold reports whether s begins with lower, s's ASCII letters
// lower-cased.
func hasPrefixFold(s, lower string) bool {
	for i := range len(lower) {
		c := s[i]
		if 'A' <= c && c <= 'Z' {
			c += 'a' - 'A'
		}
		if c != lower[i] {
			return false
		}
	}
	return true
}
