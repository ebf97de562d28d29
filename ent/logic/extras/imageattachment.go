package extras

import (
	"fmt"
	"path"
	"strings"

	"github.com/inventory/inventory/ent/schema/api"
)

// ImageAttachmentDisplay is NetBox's ImageAttachment.__str__: the name,
// else the stored file's name without the "<model>_<id>_" prefix the
// upload gave it.
func ImageAttachmentDisplay(get api.Getter) string {
	if n, _ := get("name").(string); n != "" {
		return n
	}
	img, _ := get("image").(string)
	ct, _ := get("object_type").(string)
	_, model, _ := strings.Cut(ct, ".")
	var id any = get("object_id")
	return strings.TrimPrefix(path.Base(img), fmt.Sprintf("%s_%v_", model, id))
}
