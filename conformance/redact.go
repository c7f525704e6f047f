package conformance

import (
	"encoding/json"
	"errors"
	"html"
	"net/url"
	"sort"
	"strings"
)

// keyMask stands for the service key wherever the suite prints or returns
// text that held it. It has a fixed length, so it does not tell the key's.
const keyMask = "****"

// maskKey returns s with every occurrence of the service key replaced by
// keyMask: the key as it is and as URL query or path encoding, XML or HTML
// escaping and JSON string escaping write it. An occurrence counts only
// where it is not part of a longer word (a key that starts with a letter or
// digit is not masked right after another one, and likewise at its end), so
// a short key does not mangle the words around it. An empty key masks
// nothing. This is the suite's one masking rule: every error text, report
// and console line it writes goes through it.
func maskKey(s, key string) string {
	if key == "" || s == "" {
		return s
	}
	forms := map[string]bool{key: true}
	forms[url.QueryEscape(key)] = true
	forms[url.PathEscape(key)] = true
	forms[html.EscapeString(key)] = true                                                                  // &amp; &lt; &gt; &#34; &#39;
	forms[strings.NewReplacer("&", "&amp;", "<", "&lt;", ">", "&gt;").Replace(key)] = true                // etree, XmlWriter text
	forms[strings.NewReplacer("&", "&amp;", "<", "&lt;", ">", "&gt;", `"`, "&quot;").Replace(key)] = true // attributes
	if b, err := json.Marshal(key); err == nil {
		forms[string(b[1:len(b)-1])] = true // \u0026, \" and the like
	}
	list := make([]string, 0, len(forms))
	for f := range forms {
		if f != "" {
			list = append(list, f)
		}
	}
	// Longer forms first, so an escaped form is masked whole.
	sort.Slice(list, func(i, j int) bool { return len(list[i]) > len(list[j]) })
	for _, f := range list {
		s = replaceWord(s, f, keyMask)
	}
	return s
}

// replaceWord replaces the occurrences of old in s that are not inside a
// longer word.
func replaceWord(s, old, mask string) string {
	if !strings.Contains(s, old) {
		return s
	}
	var b strings.Builder
	for {
		i := strings.Index(s, old)
		if i < 0 {
			b.WriteString(s)
			return b.String()
		}
		end := i + len(old)
		whole := !(isWordByte(old[0]) && i > 0 && isWordByte(s[i-1])) &&
			!(isWordByte(old[len(old)-1]) && end < len(s) && isWordByte(s[end]))
		b.WriteString(s[:i])
		if whole {
			b.WriteString(mask)
		} else {
			b.WriteString(old[:1])
			end = i + 1
		}
		s = s[end:]
	}
}

func isWordByte(c byte) bool {
	return c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9' || c >= 0x80
}

// maskURL returns u with the values of its strAtmServiceKey query parameter
// replaced by keyMask (whatever key they hold: a call of the key specs sends
// a made-up one) and the key masked anywhere else.
func maskURL(u, key string) string {
	p, err := url.Parse(u)
	if err != nil {
		return maskKey(u, key)
	}
	q := p.Query()
	if _, ok := q[pKey]; ok {
		// Rewrite only that parameter, keeping the others as they were sent.
		parts := strings.Split(p.RawQuery, "&")
		for i, part := range parts {
			if name, _, _ := strings.Cut(part, "="); name == pKey {
				parts[i] = pKey + "=" + keyMask
			}
		}
		p.RawQuery = strings.Join(parts, "&")
	}
	return maskKey(p.String(), key)
}

// maskError returns err with the key masked in its text: a *url.Error (the
// HTTP client's, which carries the full request URL) is rebuilt with a
// masked URL, so no error the suite returns holds the key, even unwrapped.
func maskError(err error, key string) error {
	if err == nil {
		return nil
	}
	if ue, ok := err.(*url.Error); ok {
		return &url.Error{Op: ue.Op, URL: maskURL(ue.URL, key), Err: maskError(ue.Err, key)}
	}
	if text := err.Error(); maskKey(text, key) != text {
		return errors.New(maskKey(text, key))
	}
	return err
}
