/** Text modules (wrangler.toml `[[rules]]` type `Text`): the file's content as a string. */
declare module "*.txt" {
  const content: string;
  export default content;
}
