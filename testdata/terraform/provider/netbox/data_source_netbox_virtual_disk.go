package netbox

import (
	"fmt"
	"regexp"
	"strings"

	"github.com/fbreckle/go-netbox/netbox/client/virtualization"
	"github.com/fbreckle/go-netbox/netbox/models"
	"github.com/hashicorp/terraform-plugin-sdk/v2/helper/id"
	"github.com/hashicorp/terraform-plugin-sdk/v2/helper/schema"
	"github.com/hashicorp/terraform-plugin-sdk/v2/helper/validation"
)

func dataSourceNetboxVirtualDisk() *schema.Resource {
	return &schema.Resource{
		Read:        dataSourceNetboxVirtualDiskRead,
		Description: `:meta:subcategory:Virtualization:`,
		Schema: map[string]*schema.Schema{
			"filter": {
				Type:     schema.TypeList,
				Optional: true,
				Elem: &schema.Resource{
					Schema: map[string]*schema.Schema{
						"name": {
							Type:     schema.TypeString,
							Required: true,
						},
						"value": {
							Type:     schema.TypeString,
							Required: true,
						},
					},
				},
			},
			"name_regex": {
				Type:         schema.TypeString,
				Optional:     true,
				ValidateFunc: validation.StringIsValidRegExp,
			},
			"limit": {
				Type:             schema.TypeInt,
				Optional:         true,
				ValidateDiagFunc: validation.ToDiagFunc(validation.IntAtLeast(1)),
				Default:          0,
			},
			"ordering": {
				Type:        schema.TypeList,
				Optional:    true,
				Description: "One or more fields to use for ordering the results. Prefix a field name with `-` to reverse the order. E.g. `id`, `-name`.",
				Elem:        &schema.Schema{Type: schema.TypeString},
			},
			"virtual_disks": {
				Type:     schema.TypeList,
				Computed: true,
				Elem: &schema.Resource{
					Schema: map[string]*schema.Schema{
						"id": {
							Type:     schema.TypeInt,
							Computed: true,
						},
						"name": {
							Type:     schema.TypeString,
							Computed: true,
						},
						"description": {
							Type:     schema.TypeString,
							Computed: true,
						},
						"size_mb": {
							Type:     schema.TypeInt,
							Computed: true,
						},
						"virtual_machine_id": {
							Type:     schema.TypeInt,
							Computed: true,
						},
						tagsKey: {
							Type:     schema.TypeList,
							Computed: true,
							Elem:     &schema.Schema{Type: schema.TypeString},
						},
						customFieldsKey: {
							Type:     schema.TypeMap,
							Computed: true,
						},
					},
				},
			},
		},
	}
}

func dataSourceNetboxVirtualDiskRead(d *schema.ResourceData, m interface{}) error {
	api := m.(*providerState)
	params := virtualization.NewVirtualizationVirtualDisksListParams()

	// Get user limit (0 = fetch all)
	var userLimit int64 = 0
	if limitValue, ok := d.GetOk("limit"); ok {
		userLimit = int64(limitValue.(int))
	}

	if ordering, ok := d.GetOk("ordering"); ok {
		orderingList := ordering.([]interface{})
		var orderingStrs []string
		for _, o := range orderingList {
			orderingStrs = append(orderingStrs, o.(string))
		}
		orderingStr := strings.Join(orderingStrs, ",")
		params.Ordering = &orderingStr
	}

	if filter, ok := d.GetOk("filter"); ok {
		var filterParams = filter.([]interface{})
		var tags []string
		for _, f := range filterParams {
			k := f.(map[string]interface{})["name"]
			v := f.(map[string]interface{})["value"]
			vString := v.(string)
			switch k {
			case "name":
				params.NameIc = &vString
			case "virtual_machine_id":
				params.VirtualMachineID = &vString
			case "tag":
				tags = append(tags, vString)
			default:
				return fmt.Errorf("'%s' is not a supported filter parameter", k)
			}
		}
		if len(tags) > 0 {
			params.Tag = tags
		}
	}

	// Fetch all pages with pagination (fetch all when name_regex is used)
	paginationHelper := NewPaginationHelper(FetchAll)
	var allDisks []*models.VirtualDisk

	pageSize := paginationHelper.GetPageSize()
	for {
		currentOffset := paginationHelper.CurrentOffset()
		params.Limit = &pageSize
		params.Offset = &currentOffset

		res, err := api.Virtualization.VirtualizationVirtualDisksList(params, nil)
		if err != nil {
			return fmt.Errorf("failed to fetch virtual disks at offset %d: %w", currentOffset, err)
		}

		payload := res.GetPayload()
		allDisks = append(allDisks, payload.Results...)

		if len(payload.Results) == 0 {
			break
		}

		if !paginationHelper.ShouldContinuePaging(int64(len(allDisks)), payload.Next) {
			break
		}

		paginationHelper.Advance(int64(len(payload.Results)))
	}

	// Apply name_regex filter
	var filteredDisks []*models.VirtualDisk
	if nameRegex, ok := d.GetOk("name_regex"); ok {
		r := regexp.MustCompile(nameRegex.(string))
		for _, disk := range allDisks {
			if disk.Name != nil && r.MatchString(*disk.Name) {
				filteredDisks = append(filteredDisks, disk)
			}
		}
	} else {
		filteredDisks = allDisks
	}

	// Apply user limit to filtered results
	if userLimit > 0 && int64(len(filteredDisks)) > userLimit {
		filteredDisks = filteredDisks[:userLimit]
	}

	var s []map[string]interface{}
	for _, v := range filteredDisks {
		var mapping = make(map[string]interface{})
		if v.ID != 0 {
			mapping["id"] = v.ID
		}
		if v.Name != nil {
			mapping["name"] = *v.Name
		}
		if v.Description != "" {
			mapping["description"] = v.Description
		}
		if v.Size != nil {
			mapping["size_mb"] = *v.Size
		}
		if v.VirtualMachine != nil {
			mapping["virtual_machine_id"] = v.VirtualMachine.ID
		}
		if v.CustomFields != nil {
			mapping["custom_fields"] = flattenCustomFields(v.CustomFields)
		}
		if v.Tags != nil {
			tags := []string{}
			for _, t := range v.Tags {
				if t.Name != nil {
					tags = append(tags, *t.Name)
				}
			}
			mapping["tags"] = tags
		}
		s = append(s, mapping)
	}

	d.SetId(id.UniqueId())
	return d.Set("virtual_disks", s)
}
