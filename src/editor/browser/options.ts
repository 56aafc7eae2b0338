/**
 * The choices of the pickers and filters: categories, tags, venues and organizers as `{id, name}`,
 * up to `PER_PAGE_MAX` (50) of each, by name. A term or linked post created inline is added to the
 * loaded list without asking again.
 */
import { useEffect, useState } from "preact/hooks";
import { api, ns } from "./api";

/** One choice. */
export interface Option {
  id: number;
  name: string;
}

/** Which list, and where its items' names are. */
export type OptionKind = "categories" | "tags" | "venues" | "organizers";

const NAME_FIELD: Record<OptionKind, string> = {
  categories: "name",
  tags: "name",
  venues: "venue",
  organizers: "organizer",
};

/** Items of a list answer (`{categories: […]}`, `{venues: […]}`) as options. */
export function optionsOf(kind: OptionKind, body: Record<string, unknown>): Option[] {
  const items = (body[kind] ?? []) as Array<Record<string, unknown>>;
  return items.map((item) => ({ id: Number(item.id), name: String(item[NAME_FIELD[kind]] ?? "") }));
}

/** Loads the options of a kind once; `add` puts a newly created one in. */
export function useOptions(kind: OptionKind): { options: Option[]; add: (o: Option) => void } {
  const [options, setOptions] = useState<Option[]>([]);
  useEffect(() => {
    const query =
      kind === "categories" || kind === "tags"
        ? { per_page: 50, hide_empty: "false", orderby: "name" }
        : { per_page: 50 };
    api<Record<string, unknown>>(ns(kind), { query })
      .then(({ body }) => setOptions(optionsOf(kind, body)))
      .catch(() => setOptions([]));
  }, [kind]);
  const add = (o: Option) =>
    setOptions((current) => (current.some((c) => c.id === o.id) ? current : [...current, o]));
  return { options, add };
}

/**
 * Creates a term (`POST /categories`, `/tags` with `{name}`) or a linked post (`POST /venues` with
 * `{venue}`, `/organizers` with `{organizer}`) and returns it as an option.
 * @throws ApiFailure as the API answers (e.g. 400 naming the field, 403 for the role).
 */
export async function createOption(kind: OptionKind, name: string): Promise<Option> {
  const field = NAME_FIELD[kind];
  const { body } = await api<Record<string, unknown>>(ns(kind), {
    method: "POST",
    body: { [field]: name },
  });
  return { id: Number(body.id), name: String(body[field] ?? name) };
}
