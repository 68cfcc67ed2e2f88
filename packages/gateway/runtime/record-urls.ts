/**
 * @module The ERP link of a record (decision D9) from ERP_URL_TEMPLATE: `{erp_public_url}`, `{id}`
 * and `{model}` replaced, each at its first place. Every record of every page carries one, so the
 * template is cut once per model around `{id}` instead of being searched three times per record.
 */
export type RecordUrl = (model: string, id: number) => string;

export function recordUrls(template: string, publicUrl: string): RecordUrl {
  const base = template.replace('{erp_public_url}', publicUrl);
  const at = base.indexOf('{id}');
  if (at < 0) throw new Error("ERP_URL_TEMPLATE must contain '{id}'");
  const [head, tail] = [base.slice(0, at), base.slice(at + '{id}'.length)];
  const byModel = new Map<string, readonly [string, string]>();
  return (model, id) => {
    let parts = byModel.get(model);
    if (!parts) {
      // An id is digits, so the first `{model}` after the id is inserted is in the head if there is one.
      parts = head.includes('{model}') ? [head.replace('{model}', model), tail] : [head, tail.replace('{model}', model)];
      byModel.set(model, parts);
    }
    return `${parts[0]}${id}${parts[1]}`;
  };
}
