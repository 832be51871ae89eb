"""google-genai: ``models.generate_content_stream`` with function declarations (automatic calling off),
the function calls collected from the chunks, ``function_response`` parts sent back."""
import os

from google import genai
from google.genai import types
from tools import MAX_TURNS, PROMPT, THANKS, SCHEMAS

client = genai.Client(api_key=os.environ.get("GEMINI_API_KEY") or os.environ.get("GOOGLE_API_KEY") or "k",
                      http_options=types.HttpOptions(base_url=os.environ["GOOGLE_GEMINI_BASE_URL"]))
config = types.GenerateContentConfig(
    tools=[types.Tool(function_declarations=[types.FunctionDeclaration(name=n, description=n, parameters_json_schema=s)
                                             for n, s in SCHEMAS["gemini"].items()])],
    automatic_function_calling=types.AutomaticFunctionCallingConfig(disable=True))
contents: list = [types.Content(role="user", parts=[types.Part(text=PROMPT)])]
thanked = False
for _ in range(MAX_TURNS):
    parts: list = []
    for chunk in client.models.generate_content_stream(model="gemini-3-pro", contents=contents, config=config):
        if chunk.candidates and chunk.candidates[0].content and chunk.candidates[0].content.parts:
            parts += chunk.candidates[0].content.parts
    calls = [p.function_call for p in parts if p.function_call]
    contents.append(types.Content(role="model", parts=parts or [types.Part(text="")]))
    if not calls:  # say thanks once (the next request a grader reads), then stop
        if thanked:
            break
        contents.append(types.Content(role="user", parts=[types.Part(text=THANKS)]))
        thanked = True
        continue
    contents.append(types.Content(role="user", parts=[
        types.Part(function_response=types.FunctionResponse(name=c.name, id=c.id, response={"result": "ok"}))
        for c in calls]))
