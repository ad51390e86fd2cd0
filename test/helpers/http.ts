/** The parsed JSON body of a fetch response, typed loosely for assertions. */
export async function json(res: Response): Promise<any> {
  return res.json();
}
